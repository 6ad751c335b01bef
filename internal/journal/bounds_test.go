package journal

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// A change's new contents are bounded together, whatever each file may
// hold: edits with replaceAll multiply a small request.
func TestChangeContentIsBounded(t *testing.T) {
	defer func(n int64) { maxChangeBytes = n }(maxChangeBytes)
	maxChangeBytes = 1 << 20
	files := map[string]string{}
	for i := range 4 {
		files[fmt.Sprintf("f%d.txt", i)] = strings.Repeat("a", 400)
	}
	f := newFixture(t, files)
	var ops []wop
	for i := range 4 {
		ops = append(ops, wop{ChangeOp: abi.ChangeOp{Op: abi.OpEdit, Path: fmt.Sprintf("f%d.txt", i), OldString: "a", NewString: strings.Repeat("b", 1000), ReplaceAll: true}})
	}
	if _, e := f.apply(ops...); e == nil || e.Code != abi.TooLarge {
		t.Fatalf("1.6 MB of new content against a 1 MiB bound: %v", e)
	}
	if _, e := f.apply(ops[:2]...); e != nil {
		t.Fatalf("0.8 MB: %v", e)
	}
	// A file edited twice counts once, at its last content.
	twice := []wop{
		{ChangeOp: abi.ChangeOp{Op: abi.OpWrite, Path: "g.txt"}, content: strings.Repeat("x", 700<<10)},
		{ChangeOp: abi.ChangeOp{Op: abi.OpWrite, Path: "g.txt"}, content: strings.Repeat("y", 700<<10)},
	}
	if _, e := f.apply(twice...); e != nil {
		t.Fatalf("one file written twice within the bound: %v", e)
	}
}

// The previews kept are bounded together: past the bound a preview is
// TOO_LARGE until others are applied, discarded or expire.
func TestPlansAreBounded(t *testing.T) {
	defer func(n int64) { maxPlanBytes = n }(maxPlanBytes)
	maxPlanBytes = 1 << 20
	f := newFixture(t, nil)
	plan := func(name string) *abi.Error {
		req := &abi.ChangeRequest{Ops: []abi.ChangeOp{{Op: abi.OpWrite, Path: name, Length: 300 << 10}}}
		_, e := f.j.Plan(context.Background(), who, req, []byte(strings.Repeat("z", 300<<10)))
		return e
	}
	for i := range 2 {
		if e := plan(fmt.Sprintf("p%d.txt", i)); e != nil {
			t.Fatalf("preview %d: %v", i, e)
		}
	}
	if e := plan("p2.txt"); e == nil || e.Code != abi.TooLarge {
		t.Fatalf("a preview past the bound: %v", e)
	}
	f.j.opts.now = func() time.Time { return time.Now().Add(2 * time.Hour) }
	if e := plan("p3.txt"); e != nil {
		t.Fatalf("once the others expired: %v", e)
	}
}

// The old contents a change reads (and keeps for its undo) are bounded
// together: a recursive delete or a move of a large folder is TOO_LARGE,
// with nothing deleted, and says how to do it instead.
func TestPreImagesAreBounded(t *testing.T) {
	defer func(n int64) { maxPreImageBytes = n }(maxPreImageBytes)
	maxPreImageBytes = 1 << 20
	files := map[string]string{}
	for i := range 3 {
		files[fmt.Sprintf("data/f%d.bin", i)] = strings.Repeat("d", 400<<10)
	}
	f := newFixture(t, files)
	before := tree(t, f.root)
	del := wop{ChangeOp: abi.ChangeOp{Op: abi.OpDelete, Path: "data", Recursive: true}}
	for _, o := range []wop{del, op(abi.OpMove, "data", "moved")} {
		_, e := f.apply(o)
		if msg := wantCode(t, e, abi.TooLarge); !strings.Contains(msg, "in parts") || !strings.Contains(msg, "run_command") {
			t.Fatalf("%s: the message does not say what to do: %s", o.Op, msg)
		}
		if !equalTrees(tree(t, f.root), before) {
			t.Fatalf("%s: the workspace changed:\n%s", o.Op, diffTrees(tree(t, f.root), before))
		}
	}
	f.mustApply(op(abi.OpDelete, "data/f0.bin", ""))
	f.mustApply(del) // 800 KiB left: within the bound
}

// Edits of many large files reach the same bound: the message tells to
// split the change, not (as it once did) to delete or move a folder in
// parts, which a change of edits never asked to do.
func TestPreImagesOfEditsAreBounded(t *testing.T) {
	defer func(n int64) { maxPreImageBytes = n }(maxPreImageBytes)
	maxPreImageBytes = 1 << 20
	files := map[string]string{}
	var ops []wop
	for i := range 3 {
		name := fmt.Sprintf("src/f%d.txt", i)
		files[name] = "old\n" + strings.Repeat("d", 400<<10)
		ops = append(ops, edit(name, "old", "new"))
	}
	f := newFixture(t, files)
	before := tree(t, f.root)
	_, e := f.apply(ops...)
	if msg := wantCode(t, e, abi.TooLarge); !strings.HasPrefix(msg, "the change would keep more than 1 MiB") || !strings.Contains(msg, "make it in parts that touch fewer or smaller files") {
		t.Fatalf("the message does not say to split the change: %s", msg)
	}
	if !equalTrees(tree(t, f.root), before) {
		t.Fatalf("the workspace changed:\n%s", diffTrees(tree(t, f.root), before))
	}
	f.mustApply(ops[:2]...)
}

// A moved file is written anew at its destination, so its content counts
// toward the change's new contents.
func TestMovedContentIsCounted(t *testing.T) {
	defer func(n int64) { maxChangeBytes = n }(maxChangeBytes)
	maxChangeBytes = 1 << 20
	f := newFixture(t, map[string]string{"a.bin": strings.Repeat("a", 700<<10), "b.bin": strings.Repeat("b", 700<<10)})
	_, e := f.apply(op(abi.OpMove, "a.bin", "x/a.bin"), op(abi.OpMove, "b.bin", "x/b.bin"))
	wantCode(t, e, abi.TooLarge)
	f.missing("x")
	f.mustApply(op(abi.OpMove, "a.bin", "x/a.bin"))
	// Moved back and forth in one change, a file counts once.
	f.mustApply(op(abi.OpMove, "b.bin", "c.bin"), op(abi.OpMove, "c.bin", "d.bin"))
}

// A call out of time before its change's intent is recorded writes
// nothing: rollbacks and applied plans check too, not only each operation.
func TestOutOfTimeWritesNothing(t *testing.T) {
	f := newFixture(t, map[string]string{"a.txt": "a\n"})
	res := f.mustApply(write("a.txt", "b\n"))
	plan, e := f.j.Plan(context.Background(), who, &abi.ChangeRequest{Ops: []abi.ChangeOp{{Op: abi.OpWrite, Path: "a.txt", Length: 2}}}, []byte("c\n"))
	if e != nil {
		t.Fatal(e)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	_, e = f.j.RollbackRequest(done, who, &abi.RollbackRequest{ChangeID: res.ChangeID})
	wantCode(t, e, abi.Timeout)
	_, e = f.j.ApplyPlan(done, who, plan.PlanID)
	wantCode(t, e, abi.Timeout)
	_, e = f.j.Apply(done, who, &abi.ChangeRequest{Ops: []abi.ChangeOp{{Op: abi.OpDelete, Path: "a.txt"}}}, nil)
	wantCode(t, e, abi.Timeout)
	if f.read("a.txt") != "b\n" {
		t.Fatalf("a call out of time wrote: %q", f.read("a.txt"))
	}
}

// A history list gives the first paths of each change and their count,
// so that changes of thousands of paths stay a bounded answer; by id, a
// change gives them all.
func TestHistoryListBoundsPaths(t *testing.T) {
	f := newFixture(t, nil)
	var ops []wop
	for i := range maxListedPaths + 10 {
		ops = append(ops, write(fmt.Sprintf("f%02d.txt", i), "x"))
	}
	id := f.mustApply(ops...).ChangeID
	h, e := f.j.History(&abi.HistoryRequest{})
	if e != nil {
		t.Fatal(e)
	}
	if c := h.Changes[0]; len(c.Files) != maxListedPaths || c.FilesTotal != maxListedPaths+10 {
		t.Fatalf("list: %d paths, total %d", len(c.Files), c.FilesTotal)
	}
	h, e = f.j.History(&abi.HistoryRequest{ChangeID: id})
	if e != nil {
		t.Fatal(e)
	}
	if c := h.Changes[0]; len(c.Files) != maxListedPaths+10 || c.FilesTotal != 0 {
		t.Fatalf("by id: %d paths, total %d", len(c.Files), c.FilesTotal)
	}
}

// A folder moved or deleted whole past the change's count of paths is
// TOO_LARGE saying how to do it instead, as past the old contents' bound:
// "split it into smaller changes" named nothing to split in one move.
func TestPathCountIsBoundedAndSaysWhatToDo(t *testing.T) {
	f := newFixture(t, nil)
	if err := os.Mkdir(filepath.Join(f.root, "many"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range maxPaths {
		if err := os.WriteFile(filepath.Join(f.root, "many", fmt.Sprint(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range []wop{{ChangeOp: abi.ChangeOp{Op: abi.OpDelete, Path: "many", Recursive: true}}, op(abi.OpMove, "many", "moved")} {
		_, e := f.apply(o)
		if msg := wantCode(t, e, abi.TooLarge); !strings.Contains(msg, "in parts") || !strings.Contains(msg, "run_command") {
			t.Errorf("%s: the message does not say what to do: %s", o.Op, msg)
		}
	}
	if entries, err := os.ReadDir(filepath.Join(f.root, "many")); err != nil || len(entries) != maxPaths {
		t.Fatalf("the folder changed: %d entries, %v", len(entries), err)
	}
}
