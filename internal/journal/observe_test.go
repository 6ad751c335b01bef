package journal

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// TestObserver: every committed change, rollbacks included, is told to
// the observer with absolute paths and actions; a dry run and a failed
// change are not.
func TestObserver(t *testing.T) {
	var seen [][]Touched
	f := newFixture(t, map[string]string{"a.txt": "one\n"}, WithObserver(func(ts []Touched) { seen = append(seen, ts) }))
	real, _ := filepath.EvalSymlinks(f.root)
	if _, e := f.do(true, wop{ChangeOp: abi.ChangeOp{Op: abi.OpEdit, Path: "a.txt", OldString: "one", NewString: "two"}}); e != nil {
		t.Fatal(e)
	}
	if _, e := f.apply(wop{ChangeOp: abi.ChangeOp{Op: abi.OpEdit, Path: "a.txt", OldString: "nope", NewString: "x"}}); e == nil {
		t.Fatal("a failing edit succeeded")
	}
	if len(seen) != 0 {
		t.Fatalf("a dry run or a failed change was observed: %+v", seen)
	}
	res, e := f.apply(wop{ChangeOp: abi.ChangeOp{Op: abi.OpEdit, Path: "a.txt", OldString: "one", NewString: "two"}},
		wop{ChangeOp: abi.ChangeOp{Op: abi.OpWrite, Path: "new/b.txt"}, content: "b\n"})
	if e != nil {
		t.Fatal(e)
	}
	want := map[string]string{
		filepath.Join(real, "a.txt"):     abi.ActionModified,
		filepath.Join(real, "new"):       abi.ActionDirCreated,
		filepath.Join(real, "new/b.txt"): abi.ActionCreated,
	}
	if len(seen) != 1 || len(seen[0]) != len(want) {
		t.Fatalf("observed %+v", seen)
	}
	for _, tc := range seen[0] {
		if want[tc.Path] != tc.Action {
			t.Errorf("%s: %s, want %s", tc.Path, tc.Action, want[tc.Path])
		}
	}
	if _, err := f.j.Rollback(context.Background(), who, res.ChangeID, false); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 {
		t.Fatalf("the rollback was not observed: %+v", seen)
	}
}
