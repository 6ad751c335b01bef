package journal

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/hostfns"
	store "github.com/jujutools/juju/internal/journal"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/testfs"
	"github.com/jujutools/juju/sdk/abi"
)

// A change or plan of large new contents lifts the soft memory limit for
// its work and puts it back; a small one leaves it alone, dry run or not.
func TestLargeChangeLiftsTheMemoryLimit(t *testing.T) {
	root := testfs.Workspace(t, map[string]string{"a.txt": "a\n"})
	state := filepath.Join(t.TempDir(), "state")
	pol, err := policy.New(policy.Config{Roots: []string{root}, Private: []string{state}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pol.Close() })
	j, err := store.Open(state, pol)
	if err != nil {
		t.Fatal(err)
	}
	lifted, restored := 0, 0
	fns := map[string]hostfns.Func{}
	for _, fn := range New(j, Options{LiftMemoryLimit: func() func() {
		lifted++
		return func() { restored++ }
	}}) {
		fns[fn.Name] = fn
	}
	ctx := hostfns.WithCaller(context.Background(), hostfns.Caller{Plugin: "core", Tool: "write_file", Tier: abi.TierEdit, Client: "c", CallID: "1"})
	large := strings.Repeat("x", largeChange)
	for _, c := range []struct {
		fn, path, body string
		dry            bool
		lifts          int
	}{
		{abi.FnFSApply, "small.txt", "small\n", false, 0},
		{abi.FnFSApply, "small.txt", "small\n", true, 0},
		{abi.FnFSApply, "large.txt", large, true, 1},
		{abi.FnFSApply, "large.txt", large, false, 1},
		{abi.FnFSPlan, "plan.txt", large, false, 1},
	} {
		before := lifted
		req := fmt.Sprintf(`{"ops":[{"op":"write","path":%q,"length":%d}],"dryRun":%v}`, c.path, len(c.body), c.dry)
		resp, _ := fns[c.fn].Handle(ctx, []byte(req), []byte(c.body))
		if strings.Contains(string(resp), `"code"`) {
			t.Fatalf("%s %s: %s", c.fn, c.path, resp)
		}
		if lifted-before != c.lifts || restored != lifted {
			t.Fatalf("%s of %d bytes (dry run %v): lifted %d times (restored %d of %d), want %d", c.fn, len(c.body), c.dry, lifted-before, restored, lifted, c.lifts)
		}
	}
}
