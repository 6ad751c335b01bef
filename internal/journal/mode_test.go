package journal

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// modePatch makes a.sh executable, and changes nothing else of it, and
// edits b.txt.
const modePatch = "diff --git a/a.sh b/a.sh\nold mode 100644\nnew mode 100755\n" +
	"diff --git a/b.txt b/b.txt\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-one\n+two\n"

func mode(t *testing.T, p string) os.FileMode {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// A change that fails after making a.sh executable puts its mode back
// with the rest: "nothing was changed" holds for a path whose mode alone
// changed.
func TestModeOnlyPathIsUndone(t *testing.T) {
	var root string
	f := newFixture(t, map[string]string{"a.sh": "echo hi\n", "b.txt": "one\n"}, WithFault(func(p string) {
		if p == "write:1" {
			os.WriteFile(filepath.Join(root, "b.txt"), []byte("someone else\n"), 0o644)
		}
	}))
	root = f.root
	if err := os.Chmod(filepath.Join(root, "a.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, e := f.apply(wop{ChangeOp: abi.ChangeOp{Op: abi.OpPatch, Patch: modePatch}})
	wantCode(t, e, abi.FileChanged)
	if m := mode(t, filepath.Join(root, "a.sh")); m != 0o644 {
		t.Fatalf("a.sh is %v after a change that failed, want -rw-r--r--", m)
	}
	if ch, _ := f.j.Changes(time.Time{}); len(ch) != 0 {
		t.Fatalf("a failed change was recorded: %v", ch)
	}
	noTemps(t, root)
}

// A chmod made since a change is later work: an unforced rollback of the
// change is a CONFLICT naming the file and leaves the mode; a forced one
// puts back the content and the mode the change found.
func TestRollbackSeesAChmodSince(t *testing.T) {
	f := newFixture(t, map[string]string{"run.sh": "echo 1\n"})
	p := filepath.Join(f.root, "run.sh")
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	res := f.mustApply(edit("run.sh", "1", "2"))
	if err := os.Chmod(p, 0o755); err != nil { // the owner makes it executable
		t.Fatal(err)
	}
	_, err := f.j.Rollback(context.Background(), who, res.ChangeID, false)
	e, _ := err.(*abi.Error)
	wantCode(t, e, abi.Conflict)
	if m := mode(t, p); m != 0o755 || f.read("run.sh") != "echo 2\n" {
		t.Fatalf("a refused rollback changed run.sh: %v %q", m, f.read("run.sh"))
	}
	if _, err := f.j.Rollback(context.Background(), who, res.ChangeID, true); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, p); m != 0o644 || f.read("run.sh") != "echo 1\n" {
		t.Fatalf("a forced rollback left run.sh %v %q, want -rw-r--r-- \"echo 1\\n\"", m, f.read("run.sh"))
	}
}

// A chmod made while a change is being written is a change of the file:
// FILE_CHANGED, and the owner's mode stays.
func TestChmodDuringWriteIsNotOverwritten(t *testing.T) {
	var root string
	f := newFixture(t, map[string]string{"run.sh": "echo 1\n"}, WithFault(func(p string) {
		if p == "write:0" {
			os.Chmod(filepath.Join(root, "run.sh"), 0o700)
		}
	}))
	root = f.root
	p := filepath.Join(root, "run.sh")
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	_, e := f.apply(edit("run.sh", "1", "2"))
	wantCode(t, e, abi.FileChanged)
	if m := mode(t, p); m != 0o700 || f.read("run.sh") != "echo 1\n" {
		t.Fatalf("run.sh is %v %q, want the owner's -rwx------ and its old content", m, f.read("run.sh"))
	}
	noTemps(t, root)
}
