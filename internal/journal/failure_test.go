package journal

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// A file changed by someone else while a change is being written: the
// change stops, the files already written are put back, no temporary file
// and no record are left.
func TestChangedDuringWriteIsUndone(t *testing.T) {
	files := map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n"}
	var root string
	f := newFixture(t, files, WithFault(func(p string) {
		if p == "write:1" {
			os.WriteFile(filepath.Join(root, "b.txt"), []byte("someone else\n"), 0o644)
		}
	}))
	root = f.root
	_, e := f.apply(write("a.txt", "A\n"), write("b.txt", "B\n"), write("c.txt", "C\n"))
	wantCode(t, e, abi.FileChanged)
	if f.read("a.txt") != "a\n" || f.read("b.txt") != "someone else\n" || f.read("c.txt") != "c\n" {
		t.Fatalf("not undone: %v", tree(t, root))
	}
	noTemps(t, root)
	if ch, _ := f.j.Changes(time.Time{}); len(ch) != 0 {
		t.Fatalf("a failed change was recorded: %v", ch)
	}
}

func TestFailuresWriteNothing(t *testing.T) {
	f := newFixture(t, map[string]string{"a.txt": "a\n", "dir/x": "x\n", ".git/HEAD": "ref\n", "link": "->a.txt"})
	before := tree(t, f.root)
	for _, c := range []struct {
		name string
		ops  []wop
		code abi.Code
	}{
		{"expected hash", []wop{write("new.txt", "n"), {ChangeOp: abi.ChangeOp{Op: abi.OpWrite, Path: "a.txt", ExpectedSHA256: sum([]byte("other"))}, content: "x"}}, abi.FileChanged},
		{"edit no match", []wop{write("new.txt", "n"), edit("a.txt", "zzz", "y")}, abi.NoMatch},
		{"edit missing", []wop{edit("nope.txt", "a", "b")}, abi.NotFound},
		{"git", []wop{write("new.txt", "n"), write(".git/hooks/post-checkout", "#!/bin/sh")}, abi.PathDenied},
		{"escape", []wop{write("../x", "n")}, abi.PathDenied},
		{"secret", []wop{write("id_rsa", "n")}, abi.SecretDenied},
		{"folder not empty", []wop{op(abi.OpDelete, "dir", "")}, abi.InvalidArgument},
		{"write over folder", []wop{write("dir", "n")}, abi.InvalidArgument},
		{"move onto file", []wop{op(abi.OpMove, "a.txt", "dir/x")}, abi.InvalidArgument},
		{"move into itself", []wop{op(abi.OpMove, "dir", "dir/sub")}, abi.InvalidArgument},
		{"delete root", []wop{op(abi.OpDelete, ".", "")}, abi.PathDenied},
		{"unknown op", []wop{op("chmod", "a.txt", "")}, abi.InvalidArgument},
		{"patch conflict", []wop{write("new.txt", "n"), {ChangeOp: abi.ChangeOp{Op: abi.OpPatch, Patch: "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-b\n+c\n"}}}, abi.Conflict},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, e := f.apply(c.ops...)
			wantCode(t, e, c.code)
			if !equalTrees(tree(t, f.root), before) {
				t.Fatalf("the workspace changed:\n%s", diffTrees(tree(t, f.root), before))
			}
		})
	}
	noTemps(t, f.root)
}

// TestNotEmptyFolderCountsItsEntries: a delete of a folder with one entry
// says "1 entry", not "1 entries".
func TestNotEmptyFolderCountsItsEntries(t *testing.T) {
	f := newFixture(t, map[string]string{"one/x": "x\n", "two/a": "a\n", "two/b": "b\n"})
	for path, want := range map[string]string{"one": "(1 entry)", "two": "(2 entries)"} {
		_, e := f.apply(op(abi.OpDelete, path, ""))
		if msg := wantCode(t, e, abi.InvalidArgument); !strings.Contains(msg, want) {
			t.Errorf("delete %s: %q lacks %q", path, msg, want)
		}
	}
}

func TestTooLarge(t *testing.T) {
	f := newFixture(t, map[string]string{"big": string(make([]byte, 2000))}, WithMaxFileSize(1000))
	_, e := f.apply(edit("big", "a", "b"))
	wantCode(t, e, abi.TooLarge)
	_, e = f.apply(write("new", string(make([]byte, 1001))))
	wantCode(t, e, abi.TooLarge)
}

func TestSymlinksAndModes(t *testing.T) {
	f := newFixture(t, map[string]string{"real/t.sh": "echo 1\n", "ln": "->real/t.sh", "dangling": "->nowhere.txt"})
	os.Chmod(filepath.Join(f.root, "real/t.sh"), 0o750)
	f.mustApply(edit("ln", "1", "2"))
	if fi, err := os.Lstat(filepath.Join(f.root, "ln")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
	if fi, _ := os.Stat(filepath.Join(f.root, "real/t.sh")); fi.Mode().Perm() != 0o750 || f.read("real/t.sh") != "echo 2\n" {
		t.Fatalf("target: %v %q", fi.Mode(), f.read("real/t.sh"))
	}
	// Writing a dangling link creates its in-root target.
	f.mustApply(write("dangling", "now here\n"))
	if f.read("nowhere.txt") != "now here\n" {
		t.Fatal("dangling target not created")
	}
	// Deleting a link deletes the link; rollback restores it.
	r := f.mustApply(op(abi.OpDelete, "ln", ""))
	f.missing("ln")
	if f.read("real/t.sh") != "echo 2\n" {
		t.Fatal("target deleted")
	}
	if _, err := f.j.Rollback(context.Background(), who, r.ChangeID, false); err != nil {
		t.Fatal(err)
	}
	if tgt, err := os.Readlink(filepath.Join(f.root, "ln")); err != nil || tgt != "real/t.sh" {
		t.Fatalf("link not restored: %q %v", tgt, err)
	}
	noTemps(t, f.root)
}

func TestPlans(t *testing.T) {
	f := newFixture(t, map[string]string{"a.txt": "a\n"})
	p, e := f.j.Plan(context.Background(), who, &abi.ChangeRequest{Ops: []abi.ChangeOp{{Op: abi.OpEdit, Path: "a.txt", OldString: "a", NewString: "b"}}}, nil)
	if e != nil {
		t.Fatal(e)
	}
	if f.read("a.txt") != "a\n" {
		t.Fatal("a plan wrote")
	}
	if _, e := f.j.ApplyPlan(context.Background(), who, p.PlanID); e != nil {
		t.Fatal(e)
	}
	if f.read("a.txt") != "b\n" {
		t.Fatal("plan not applied")
	}
	_, e = f.j.ApplyPlan(context.Background(), who, p.PlanID)
	wantCode(t, e, abi.NotFound)
	wantCode(t, f.j.DiscardPlan(who, "p999"), abi.NotFound)
	wantCode(t, f.j.DiscardPlan(who, "bogus"), abi.InvalidArgument)
	// Expired plans are gone.
	f.j.opts.planTTL = -time.Second
	p, e = f.j.Plan(context.Background(), who, &abi.ChangeRequest{Ops: []abi.ChangeOp{{Op: abi.OpMkdir, Path: "d"}}}, nil)
	if e != nil {
		t.Fatal(e)
	}
	_, e = f.j.ApplyPlan(context.Background(), who, p.PlanID)
	wantCode(t, e, abi.NotFound)
}

// Two journals over one database (two juju processes on one workspace)
// edit the same file at once: every edit lands, none is lost, and every
// one is recorded.
func TestTwoWritersShareTheJournal(t *testing.T) {
	f := newFixture(t, map[string]string{"n.txt": ""})
	other, err := Open(f.state, f.pol)
	if err != nil {
		t.Fatal(err)
	}
	const each = 15
	var wg sync.WaitGroup
	for w, j := range []*Journal{f.j, other} {
		wg.Go(func() {
			for i := range each {
				line := fmt.Sprintf("w%d-%d\n", w, i)
				for {
					cur, _ := os.ReadFile(filepath.Join(f.root, "n.txt"))
					req := &abi.ChangeRequest{Ops: []abi.ChangeOp{{Op: abi.OpWrite, Path: "n.txt", ExpectedSHA256: sum(cur), Length: int64(len(cur) + len(line))}}}
					_, e := j.Apply(context.Background(), who, req, append(cur, line...))
					if e == nil {
						break
					}
					if e.Code != abi.FileChanged {
						t.Error(e)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if got := len(f.read("n.txt")) / len("w0-0\n"); got < 2*each-2 { // lines are 5 or 6 bytes
		t.Fatalf("lost writes: %q", f.read("n.txt"))
	}
	ch, err := f.j.Changes(time.Time{})
	if err != nil || len(ch) != 2*each {
		t.Fatalf("%d changes recorded, want %d (%v)", len(ch), 2*each, err)
	}
}

func TestHistory(t *testing.T) {
	f := newFixture(t, map[string]string{"a.txt": "a\n"})
	r1 := f.mustApply(edit("a.txt", "a", "b"))
	f.mustApply(write("b.txt", "x"))
	h, e := f.j.History(&abi.HistoryRequest{Limit: 1})
	if e != nil || len(h.Changes) != 1 || !h.More || h.Changes[0].Files[0].Path != "b.txt" {
		t.Fatalf("%+v %v", h, e)
	}
	h, e = f.j.History(&abi.HistoryRequest{Limit: 1, Offset: 1})
	if e != nil || len(h.Changes) != 1 || h.More || h.Changes[0].ID != r1.ChangeID {
		t.Fatalf("offset 1: %+v %v", h, e)
	}
	h, e = f.j.History(&abi.HistoryRequest{Offset: 2})
	if e != nil || len(h.Changes) != 0 || h.More {
		t.Fatalf("offset past the end: %+v %v", h, e)
	}
	h, e = f.j.History(&abi.HistoryRequest{Path: "a.txt"})
	if e != nil || len(h.Changes) != 1 || h.Changes[0].ID != r1.ChangeID || h.Changes[0].Diff != "" {
		t.Fatalf("by path: %+v %v", h, e)
	}
	h, e = f.j.History(&abi.HistoryRequest{ChangeID: r1.ChangeID[3:]})
	if e != nil || h.Changes[0].Diff == "" || h.Changes[0].CallID != "a1" {
		t.Fatalf("one: %+v %v", h, e)
	}
	_, e = f.j.History(&abi.HistoryRequest{ChangeID: "c77"})
	wantCode(t, e, abi.NotFound)
	c, err := f.j.Change(r1.ChangeID)
	if err != nil || c.Diff == "" || c.Tool != "edit_file" || len(c.Paths) != 1 {
		t.Fatalf("Change: %+v %v", c, err)
	}
}
