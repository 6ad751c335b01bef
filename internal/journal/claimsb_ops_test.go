package journal

import (
	"context"
	"fmt"
	"math"
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

// TestWriteLengthsCannotOverflow: the lengths of a request's writes are
// the plugin's to state, and the host checks them against the body. A
// length that overflowed the running offset (1, then 2^63-1) passed the
// check and sliced the body out of range: a runtime panic in the host,
// which the journal's guard took for possible damage, reading the whole
// database back for every such request, and answered INTERNAL. It is
// INVALID_ARGUMENT, a change, a dry run and a plan alike, and nothing is
// written.
func TestWriteLengthsCannotOverflow(t *testing.T) {
	f := newFixture(t, nil)
	f.mustApply(write("kept.txt", "kept\n"))
	for _, lengths := range [][]int64{{1, math.MaxInt64}, {2, math.MaxInt64 - 1}, {math.MaxInt64}} {
		req := &abi.ChangeRequest{}
		for i, n := range lengths {
			req.Ops = append(req.Ops, abi.ChangeOp{Op: abi.OpWrite, Path: fmt.Sprintf("w%d.txt", i), Length: n})
		}
		body := []byte("xy")
		if _, e := f.j.Apply(context.Background(), who, req, body); e == nil || e.Code != abi.InvalidArgument {
			t.Errorf("lengths %v: %v, want INVALID_ARGUMENT", lengths, e)
		}
		req.DryRun = true
		if _, e := f.j.Apply(context.Background(), who, req, body); e == nil || e.Code != abi.InvalidArgument {
			t.Errorf("lengths %v, a dry run: %v, want INVALID_ARGUMENT", lengths, e)
		}
		req.DryRun = false
		if _, e := f.j.Plan(context.Background(), who, req, body); e == nil || e.Code != abi.InvalidArgument {
			t.Errorf("lengths %v, a plan: %v, want INVALID_ARGUMENT", lengths, e)
		}
	}
	f.j.Wait()
	if ents, _ := os.ReadDir(f.root); len(ents) != 1 {
		t.Errorf("the workspace holds %d entries, want kept.txt alone", len(ents))
	}
	if got := f.read("kept.txt"); got != "kept\n" {
		t.Errorf("kept.txt = %q", got)
	}
}
