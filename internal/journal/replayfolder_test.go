package journal

import (
	"context"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// A folder replaced by a file, and a file by a folder, in one change or
// in several, is made, planned, applied and rolled back like any other
// path. A path under a file that the change itself moves away was read as
// a file system error (ENOTDIR), INTERNAL; and a replay (a rollback, an
// applied plan) refused every path under a folder that was a file on disk
// when it began, though the replay itself made the folder again, so a
// rollback of both changes together was CONFLICT for good.
func TestFolderAndFileTradePlaces(t *testing.T) {
	start := map[string]string{"c/z": "z\n", "b/x": "x\n", "f": "file f\n", "X/g": "g\n"}
	back := func(t *testing.T, f *fixture, want map[string]string, undo func() error) {
		t.Helper()
		if err := undo(); err != nil {
			t.Fatalf("rollback: %v", err)
		}
		if got := tree(t, f.root); !equalTrees(got, want) {
			t.Fatalf("rollback left:\n%s", diffTrees(got, want))
		}
		noTemps(t, f.root)
	}

	t.Run("a folder made a file, rolled back with what followed", func(t *testing.T) {
		f := newFixture(t, start)
		want := tree(t, f.root)
		f.mustApply(wop{ChangeOp: abi.ChangeOp{Op: abi.OpDelete, Path: "c", Recursive: true}})
		f.mustApply(write("c", "now a file\n"))
		back(t, f, want, func() error {
			_, err := f.j.RollbackAfter(context.Background(), who, "c0", false)
			return err
		})
	})

	t.Run("a file made a folder by a plan", func(t *testing.T) {
		f := newFixture(t, start)
		want := tree(t, f.root)
		req, body := request(false, []wop{op(abi.OpDelete, "f", ""), op(abi.OpMove, "X", "f")})
		p, e := f.j.Plan(context.Background(), who, req, body)
		if e != nil {
			t.Fatalf("plan: %v", e)
		}
		res, e := f.j.ApplyPlan(context.Background(), who, p.PlanID)
		if e != nil {
			t.Fatalf("apply the plan: %v", e)
		}
		if got := f.read("f/g"); got != "g\n" {
			t.Fatalf("f/g: %q", got)
		}
		back(t, f, want, func() error {
			_, err := f.j.Rollback(context.Background(), who, res.ChangeID, false)
			return err
		})
	})

	t.Run("a folder moved where a file was moved away", func(t *testing.T) {
		f := newFixture(t, start)
		want := tree(t, f.root)
		res := f.mustApply(op(abi.OpMove, "c", "d"), op(abi.OpMove, "b", "c/z"))
		if f.read("c/z/x") != "x\n" || f.read("d/z") != "z\n" {
			t.Fatal("the moves did not land")
		}
		back(t, f, want, func() error {
			_, err := f.j.Rollback(context.Background(), who, res.ChangeID, false)
			return err
		})
	})

	t.Run("a folder that stays a file is still refused", func(t *testing.T) {
		f := newFixture(t, start)
		first := f.mustApply(write("c/new", "n\n"))
		f.mustApply(wop{ChangeOp: abi.ChangeOp{Op: abi.OpDelete, Path: "c", Recursive: true}})
		f.mustApply(write("c", "now a file\n"))
		_, err := f.j.Rollback(context.Background(), who, first.ChangeID, true)
		if e, ok := err.(*abi.Error); !ok || e.Code != abi.Conflict || !strings.Contains(e.Message, "no longer a folder") {
			t.Fatalf("rollback of the first change alone, forced: %v", err)
		}
		if f.read("c") != "now a file\n" {
			t.Fatal("the refused rollback changed c")
		}
	})
}
