package git

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// A repository's own settings make git read a file whole into memory:
// diff.orderFile = /dev/zero had git status and git diff grow until the
// machine ran out of memory (a cloned repository's .git/config is the
// attacker's). Every git juju starts has its data memory capped, and a
// git stopped by the cap is TOO_LARGE saying why. A 256 MiB file of
// zeros stands for /dev/zero here: git reads it whole and needs some
// 600 MB, far past the 64 MiB cap the test sets.
func TestGitMemoryIsCapped(t *testing.T) {
	_, root := fixture(t)
	zeros := filepath.Join(t.TempDir(), "zeros")
	f, err := os.Create(zeros)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(256 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cmd := exec.Command("git", "config", "diff.orderFile", zeros)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git config: %v %s", err, out)
	}
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\nchanged\n"), 0o644)
	p, err := policy.New(policy.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	h := New(p, Options{MaxData: 64 << 20})[0].Handle
	for _, args := range [][]string{{"status", "--porcelain"}, {"diff"}} {
		ctx := hostfns.WithCaller(context.Background(), hostfns.Caller{Tier: abi.TierRead})
		b, _ := json.Marshal(abi.GitRequest{Args: args})
		rh, _ := h(ctx, b, nil)
		var r abi.GitResult
		json.Unmarshal(rh, &r)
		if r.Error == nil || r.Error.Code != abi.TooLarge {
			t.Errorf("git %v with diff.orderFile a 256 MiB file: %+v, want TOO_LARGE", args, r)
		}
	}
}
