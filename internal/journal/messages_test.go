package journal

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// A rollback that would remove a folder holding something the change did
// not make refuses, forced or not, and names it, instead of failing half
// way as an INTERNAL file system error.
func TestRollbackKeepsWhatItDidNotMake(t *testing.T) {
	f := newFixture(t, nil)
	res := f.mustApply(write("newdir/a.txt", "a\n"))
	os.WriteFile(filepath.Join(f.root, "newdir", "mine.txt"), []byte("mine\n"), 0o644)
	before := tree(t, f.root)
	for _, force := range []bool{false, true} {
		_, err := f.j.Rollback(context.Background(), who, res.ChangeID, force)
		ae, _ := err.(*abi.Error)
		if ae == nil || ae.Code != abi.Conflict || !strings.Contains(ae.Message, `"newdir/mine.txt"`) {
			t.Fatalf("force %v: %v, want CONFLICT naming newdir/mine.txt", force, err)
		}
	}
	if !equalTrees(tree(t, f.root), before) {
		t.Fatalf("the workspace changed:\n%s", diffTrees(tree(t, f.root), before))
	}
}

// A plan that deletes a folder, applied after something was added to it:
// FILE_CHANGED naming the new entry.
func TestPlanOverAFolderFilledSince(t *testing.T) {
	f := newFixture(t, map[string]string{"d/x": "x\n"})
	req := &abi.ChangeRequest{Ops: []abi.ChangeOp{{Op: abi.OpDelete, Path: "d", Recursive: true}}}
	plan, e := f.j.Plan(context.Background(), who, req, nil)
	if e != nil {
		t.Fatal(e)
	}
	os.WriteFile(filepath.Join(f.root, "d", "z"), []byte("z\n"), 0o644)
	_, e = f.j.ApplyPlan(context.Background(), who, plan.PlanID)
	if msg := wantCode(t, e, abi.FileChanged); !strings.Contains(msg, `"d/z"`) {
		t.Fatalf("the new entry is not named: %s", msg)
	}
	if f.read("d/x") != "x\n" {
		t.Fatal("d/x was deleted")
	}
}

// Something added to a folder between the change's check and its removal:
// FILE_CHANGED naming it, and the paths already removed are put back.
func TestFolderFilledDuringDelete(t *testing.T) {
	var root string
	f := newFixture(t, map[string]string{"d/x": "x\n", "d/y": "y\n"}, WithFault(func(p string) {
		if p == "intent" {
			os.WriteFile(filepath.Join(root, "d", "late"), []byte("late\n"), 0o644)
		}
	}))
	root = f.root
	_, e := f.apply(wop{ChangeOp: abi.ChangeOp{Op: abi.OpDelete, Path: "d", Recursive: true}})
	if msg := wantCode(t, e, abi.FileChanged); !strings.Contains(msg, `"d/late"`) {
		t.Fatalf("the new entry is not named: %s", msg)
	}
	if f.read("d/x") != "x\n" || f.read("d/y") != "y\n" || f.read("d/late") != "late\n" {
		t.Fatalf("not put back: %v", tree(t, root))
	}
	noTemps(t, root)
}

// After c2 rolls back c1 and c3 rolls back c2, c1 is in effect again: it
// can be rolled back, and then it says who rolled it back.
func TestRollbackOfARedoneChange(t *testing.T) {
	f := newFixture(t, map[string]string{"a.txt": "old\n"})
	ctx := context.Background()
	c1 := f.mustApply(write("a.txt", "new\n")).ChangeID
	c2, err := f.j.Rollback(ctx, who, c1, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.j.Rollback(ctx, who, c2.ChangeID, false); err != nil {
		t.Fatal(err)
	}
	if f.read("a.txt") != "new\n" {
		t.Fatalf("c1 is not redone: %q", f.read("a.txt"))
	}
	c4, err := f.j.Rollback(ctx, who, c1, false)
	if err != nil {
		t.Fatalf("rolling back the redone %s: %v", c1, err)
	}
	if f.read("a.txt") != "old\n" || len(c4.RolledBack) != 1 || c4.RolledBack[0] != c1 {
		t.Fatalf("a.txt %q, rolled back %v", f.read("a.txt"), c4.RolledBack)
	}
	_, err = f.j.Rollback(ctx, who, c1, false)
	if ae, _ := err.(*abi.Error); ae == nil || ae.Code != abi.Conflict || !strings.Contains(ae.Message, "rolled back by "+c4.ChangeID) {
		t.Fatalf("got %v, want CONFLICT naming %s", err, c4.ChangeID)
	}
}

// An expectedSha256 given for a folder or a symlink that is there says
// what is there and to leave the hash out: "it is not there now; read
// the folder again" sent the model to read a folder that held it, and a
// link's hash as file_info gives it (its target's) never matched.
func TestExpectedSHA256OfAFolderOrALink(t *testing.T) {
	f := newFixture(t, map[string]string{"d/x": "x\n", "f.txt": "f\n"})
	if err := os.Symlink("f.txt", filepath.Join(f.root, "lf")); err != nil {
		t.Skip(err)
	}
	for _, c := range []struct{ kind, path, says string }{
		{abi.OpDelete, "d", `"d" is a folder`},
		{abi.OpDelete, "lf", `"lf" is a symlink`},
		{abi.OpMove, "lf", `"lf" is a symlink`},
		{abi.OpDelete, "gone", "not there now"},
	} {
		w := op(c.kind, c.path, "")
		if c.kind == abi.OpMove {
			w.To = "moved"
		}
		w.ExpectedSHA256 = sum([]byte("f\n"))
		_, e := f.apply(w)
		code := abi.InvalidArgument
		if c.path == "gone" {
			code = abi.FileChanged
		}
		if msg := wantCode(t, e, code); !strings.Contains(msg, c.says) {
			t.Errorf("%s %s: %s", c.kind, c.path, msg)
		}
	}
	if f.read("d/x") != "x\n" || f.read("f.txt") != "f\n" {
		t.Fatal("the workspace changed")
	}
	if target, err := os.Readlink(filepath.Join(f.root, "lf")); err != nil || target != "f.txt" {
		t.Fatalf("the link changed: %q, %v", target, err)
	}
}

// A path below a file, named as a move's destination or a path to
// delete, is NOT_FOUND saying what to do, not only that it is not there.
func TestPathBelowAFileSaysWhatToDo(t *testing.T) {
	f := newFixture(t, map[string]string{"f.txt": "f\n", "g.txt": "g\n"})
	for _, w := range []wop{op(abi.OpMove, "g.txt", "f.txt/g.txt"), op(abi.OpDelete, "f.txt/x", "")} {
		_, e := f.apply(w)
		if msg := wantCode(t, e, abi.NotFound); !strings.Contains(msg, `"f.txt" is not a folder`) || !strings.Contains(msg, "list_directory") {
			t.Errorf("%s: %s", w.Op, msg)
		}
	}
	if f.read("g.txt") != "g\n" {
		t.Fatal("g.txt changed")
	}
}
