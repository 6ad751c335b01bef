package journal

import (
	"context"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/jujutools/juju/sdk/abi"
)

// Random changes of a few operations (writes, edits, deletes, moves,
// folders made, patches that rename or create) over a small tree with
// links hold the journal's promises: a refused change writes nothing and
// is never INTERNAL, a dry run agrees with the change, every path holds
// what its record says, and a rollback (of the change, through a plan, or
// of everything after the start) puts back the tree exactly; a rollback
// after someone changed a path is either refused with nothing written, or
// restores the change's paths and nothing else. It found a folder and a
// file trading places INTERNAL and not rolled back
// (TestFolderAndFileTradePlaces). JUJU_RANDOM_SEED picks other changes.
func TestRandomChangesRollBack(t *testing.T) {
	seed := int64(1)
	if s := os.Getenv("JUJU_RANDOM_SEED"); s != "" {
		for _, c := range s {
			seed = seed*10 + int64(c-'0')
		}
	}
	rng := rand.New(rand.NewSource(seed))
	paths := []string{"a", "b", "c", "a/x", "a/y", "b/x", "l", "a/l2", "c/z", "a/x/q", "d/e/f", "l/x", "a/l2/x"}
	pick := func() string { return paths[rng.Intn(len(paths))] }
	stateOf := func(f *fixture, fr fileRec) image {
		img, err := hashState(f.pol.Roots()[fr.Root].OS, fr.Rel, 1<<30)
		if errors.Is(err, syscall.ENOTDIR) {
			return image{Kind: kindAbsent}
		} else if err != nil {
			t.Fatalf("%s: %v", fr.Rel, err)
		}
		return img
	}
	for it := range 150 {
		f := newFixture(t, map[string]string{"a/x": "one\n", "a/y": "two\n", "b/x": "three\n", "l": "->a", "a/l2": "->../b", "c/z": "z\n"})
		start := tree(t, f.root)
		var ops []wop
		for range 1 + rng.Intn(4) {
			p, q := pick(), pick()
			switch rng.Intn(8) {
			case 0:
				ops = append(ops, write(p, "w"+p+"\n"))
			case 1:
				ops = append(ops, edit(p, "\n", "!\n"))
			case 2:
				o := op(abi.OpDelete, p, "")
				o.Recursive = rng.Intn(2) == 0
				ops = append(ops, o)
			case 3, 4:
				o := op(abi.OpMove, p, q)
				o.Overwrite = rng.Intn(2) == 0
				ops = append(ops, o)
			case 5:
				ops = append(ops, op(abi.OpMkdir, p, ""))
			case 6:
				ops = append(ops, wop{ChangeOp: abi.ChangeOp{Op: abi.OpPatch, Patch: "diff --git a/" + p + " b/" + q + "\nsimilarity index 100%\nrename from " + p + "\nrename to " + q + "\n"}})
			case 7:
				ops = append(ops, wop{ChangeOp: abi.ChangeOp{Op: abi.OpPatch, Patch: "--- /dev/null\n+++ b/" + q + "\n@@ -0,0 +1 @@\n+new\n"}})
			}
		}
		_, de := f.do(true, ops...)
		var res *abi.ChangeResult
		var e *abi.Error
		if it%2 == 1 { // through a plan
			req, body := request(false, ops)
			pl, pe := f.j.Plan(context.Background(), who, req, body)
			switch {
			case pe != nil && pe.Code == abi.InvalidArgument && de == nil:
				continue // it changes nothing: no plan
			case pe != nil:
				e = pe
			default:
				if res, e = f.j.ApplyPlan(context.Background(), who, pl.PlanID); e != nil {
					t.Fatalf("%d: the plan is not applied: %v; ops %+v", it, e, ops)
				}
			}
		} else {
			res, e = f.apply(ops...)
		}
		if (de == nil) != (e == nil) {
			t.Fatalf("%d: the dry run says %v, the change %v; ops %+v", it, de, e, ops)
		}
		if e != nil {
			if e.Code == abi.Internal {
				t.Fatalf("%d: %v; ops %+v", it, e, ops)
			}
			if got := tree(t, f.root); !equalTrees(got, start) {
				t.Fatalf("%d: refused (%v) but changed:\n%s ops %+v", it, e, diffTrees(got, start), ops)
			}
			continue
		}
		noTemps(t, f.root)
		if res.ChangeID == "" {
			continue
		}
		var rec *record
		f.j.view(func(tx *bolt.Tx) error { rec, _ = getRecord(tx, res.ChangeID); return nil })
		for _, fr := range rec.Files {
			if img := stateOf(f, fr); !img.equal(fr.After) {
				t.Fatalf("%d: %s is %+v, recorded %+v; ops %+v", it, fr.Rel, img, fr.After, ops)
			}
		}
		switch it % 4 {
		case 0: // a second change, then everything after the start undone
			if _, e := f.apply(ops[len(ops)-1], write("a/x", "again\n")); e == nil {
				if _, err := f.j.RollbackAfter(context.Background(), who, "c0", false); err != nil {
					t.Fatalf("%d: rollback after the start: %v; ops %+v", it, err, ops)
				}
				if got := tree(t, f.root); !equalTrees(got, start) {
					t.Fatalf("%d: the rollback left:\n%s ops %+v", it, diffTrees(got, start), ops)
				}
				continue
			}
		case 2: // someone changes a path first
			full := filepath.Join(f.root, pick())
			switch rng.Intn(4) {
			case 0:
				os.WriteFile(full, []byte("theirs\n"), 0o644)
			case 1:
				os.RemoveAll(full)
			case 2:
				os.MkdirAll(full, 0o755)
			case 3:
				os.Chmod(full, 0o600)
			}
			pre := tree(t, f.root)
			_, err := f.j.Rollback(context.Background(), who, res.ChangeID, false)
			post := tree(t, f.root)
			if err != nil {
				if ae, ok := err.(*abi.Error); !ok || ae.Code == abi.Internal || !equalTrees(pre, post) {
					t.Fatalf("%d: a refused rollback (%v) changed:\n%s ops %+v", it, err, diffTrees(post, pre), ops)
				}
				continue
			}
			for _, fr := range rec.Files {
				if img := stateOf(f, fr); !img.equal(fr.Before) {
					t.Fatalf("%d: rolled back, %s is %+v, want %+v; ops %+v", it, fr.Rel, img, fr.Before, ops)
				}
			}
			for k, v := range pre {
				k = strings.TrimSuffix(k, "/")
				ours := false
				for _, fr := range rec.Files {
					ours = ours || k == fr.Rel || strings.HasPrefix(k, fr.Rel+"/")
				}
				if !ours && post[k] != v && post[k+"/"] != v {
					t.Fatalf("%d: the rollback changed %s, not its path: %q → %q; ops %+v", it, k, v, post[k], ops)
				}
			}
			continue
		}
		if _, err := f.j.Rollback(context.Background(), who, res.ChangeID, false); err != nil {
			t.Fatalf("%d: rollback: %v; ops %+v", it, err, ops)
		}
		if got := tree(t, f.root); !equalTrees(got, start) {
			t.Fatalf("%d: the rollback left:\n%s ops %+v", it, diffTrees(got, start), ops)
		}
	}
}
