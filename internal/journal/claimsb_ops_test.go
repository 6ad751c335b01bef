package journal

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// TestChangeOpsAreBounded holds juju to SECURITY.md, "Writes and the
// journal", Bounds: a change holds at most abi.MaxChangeOps operations, a
// dry run and a plan too. Past it the request is TOO_LARGE and nothing is
// written or planned; at the bound it is made.
func TestChangeOpsAreBounded(t *testing.T) {
	f := newFixture(t, nil)
	ops := func(n int) []wop {
		var w []wop
		for i := range n {
			w = append(w, write(fmt.Sprintf("f%d.txt", i), "x"))
		}
		return w
	}
	over := ops(abi.MaxChangeOps + 1)
	for _, dry := range []bool{false, true} {
		if _, e := f.do(dry, over...); e == nil || e.Code != abi.TooLarge {
			t.Errorf("%d operations (dry run %v): %v, want TOO_LARGE", len(over), dry, e)
		}
	}
	req, body := request(false, over)
	if _, e := f.j.Plan(context.Background(), who, req, body); e == nil || e.Code != abi.TooLarge {
		t.Errorf("a plan of %d operations: %v, want TOO_LARGE", len(over), e)
	}
	if ents, err := os.ReadDir(f.root); err != nil || len(ents) != 0 {
		t.Fatalf("a refused change wrote %d entries (%v)", len(ents), err)
	}
	if res, e := f.do(true, ops(abi.MaxChangeOps)...); e != nil || len(res.Files) != abi.MaxChangeOps {
		t.Fatalf("%d operations, the bound, as a dry run: %v", abi.MaxChangeOps, e)
	}
}
