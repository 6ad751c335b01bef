//go:build unix

package journal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// A path ending in "/" names a folder, as POSIX has it: writing, editing
// or patching a file by it is INVALID_ARGUMENT with a sentence; deleting
// or moving a file by it is NOT_FOUND, as a read of it is answered, and
// a link INVALID_ARGUMENT; nothing changes. It once made a
// regular file "newfile" of "newfile/", deleted "f.txt" for "f.txt/", and
// "link/" acted on the link, not the folder it names. A folder named so
// is deleted, moved and made as before.
func TestTrailingSlashNamesAFolder(t *testing.T) {
	files := map[string]string{"f.txt": "f\n", "dir/a.txt": "a\n", "link": "->dir", "flink": "->f.txt"}
	refused := []struct {
		name string
		op   wop
		want string
	}{
		{"write a new file", write("newfile/", "x"), "names a folder"},
		{"write an existing file", write("f.txt/", "x"), "names a folder"},
		{"write through /.", write("f.txt/.", "x"), "names a folder"},
		{"edit", edit("f.txt/", "f", "g"), "names a folder"},
		{"patch", wop{ChangeOp: abi.ChangeOp{Op: abi.OpPatch, Patch: "--- /dev/null\n+++ b/newfile/\n@@ -0,0 +1 @@\n+x\n"}}, "names a folder"},
		{"delete a file", op(abi.OpDelete, "f.txt/", ""), "is a file, not a folder"},
		{"delete a link to a folder", op(abi.OpDelete, "link/", ""), "a symbolic link, by its own name"},
		{"delete a link to a file", op(abi.OpDelete, "flink/", ""), "a symbolic link, by its own name"},
		{"move a file", op(abi.OpMove, "f.txt/", "g.txt"), "is a file, not a folder"},
		{"move onto a file", op(abi.OpMove, "dir/", "f.txt/"), "is a file, not a folder"},
		{"move a file to a folder's name", op(abi.OpMove, "f.txt", "g/"), "give the full new path"},
		{"move a link", op(abi.OpMove, "link/", "l2"), "a symbolic link, by its own name"},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, files)
			before := tree(t, f.root)
			_, e := f.apply(tc.op)
			code := abi.InvalidArgument
			if strings.Contains(tc.want, "not a folder") {
				code = abi.NotFound // as a read of it is answered
			}
			if e == nil || e.Code != code || !strings.Contains(e.Message, tc.want) {
				t.Fatalf("%v, want %s saying %q", e, code, tc.want)
			}
			if after := tree(t, f.root); !equalTrees(before, after) {
				t.Fatalf("the tree changed: %v → %v", before, after)
			}
		})
	}

	f := newFixture(t, files)
	f.mustApply(op(abi.OpMkdir, "made/", ""))
	f.mustApply(op(abi.OpMove, "dir/", "moved/"))
	if f.read("moved/a.txt") != "a\n" {
		t.Fatal("dir/ was not moved to moved/")
	}
	f.mustApply(wop{ChangeOp: abi.ChangeOp{Op: abi.OpDelete, Path: "moved/", Recursive: true}})
	f.missing("moved")
	if fi, err := os.Lstat(filepath.Join(f.root, "made")); err != nil || !fi.IsDir() {
		t.Fatalf("made/ is not a folder: %v", err)
	}
}

// A folder moved onto a file with overwrite is refused saying why — a
// folder never replaces a file — not told to set the overwrite it set.
func TestMoveFolderOntoFileSaysWhy(t *testing.T) {
	f := newFixture(t, map[string]string{"d/a.txt": "a\n", "b.txt": "b\n"})
	for _, overwrite := range []bool{false, true} {
		_, e := f.apply(wop{ChangeOp: abi.ChangeOp{Op: abi.OpMove, Path: "d", To: "b.txt", Overwrite: overwrite}})
		if e == nil || e.Code != abi.InvalidArgument || strings.Contains(e.Message, "set overwrite") || !strings.Contains(e.Message, "delete \"b.txt\" first") {
			t.Fatalf("overwrite %v: %v", overwrite, e)
		}
	}
	if f.read("b.txt") != "b\n" || f.read("d/a.txt") != "a\n" {
		t.Fatal("the refused move changed files")
	}
}
