//go:build unix

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// claimInode returns the inode number and link count of the file at path.
func claimInode(t *testing.T, path string) (ino uint64, nlink uint64) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		t.Skip("no syscall.Stat_t on this platform")
	}
	return uint64(st.Ino), uint64(st.Nlink)
}

// claimCountFiles counts the regular files under dir.
func claimCountFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestClaimHardLinkIsBrokenNotWrittenThrough holds juju to SECURITY.md,
// "Writes and the journal", Preserved on edit: "Files are replaced, never
// written in place, so a hard link to a file elsewhere is broken, not
// written through." A file outside the workspace, hard-linked into it, is
// changed through edit_file, write_file and apply_patch: the outside file
// must keep its bytes (and be left as the only name of its inode), while
// the workspace name holds the new content in a new file of one link. A
// writer that wrote in place would change the outside file.
func TestClaimHardLinkIsBrokenNotWrittenThrough(t *testing.T) {
	root := workspace(t, map[string]string{"keep.txt": "x\n"})
	outside := t.TempDir()
	const original = "alpha\nbeta\ngamma\n"
	names := []string{"edited.txt", "written.txt", "patched.txt"}
	for _, name := range names {
		out := filepath.Join(outside, name)
		if err := os.WriteFile(out, []byte(original), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(out, filepath.Join(root, name)); err != nil {
			t.Skipf("cannot make a hard link from the temporary folder into the workspace: %v", err)
		}
		if _, n := claimInode(t, out); n != 2 {
			t.Fatalf("%s: link count %d before the change, want 2", name, n)
		}
	}
	s := start(t, root, "--mode", "trusted")

	cases := []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"edited.txt", "edit_file", map[string]any{"path": "edited.txt", "oldString": "beta\n", "newString": "BETA\n"}, "alpha\nBETA\ngamma\n"},
		{"written.txt", "write_file", map[string]any{"path": "written.txt", "content": "replaced\n"}, "replaced\n"},
		{"patched.txt", "apply_patch", map[string]any{"patch": "--- a/patched.txt\n+++ b/patched.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+PATCHED\n gamma\n"}, "alpha\nPATCHED\ngamma\n"},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			s := s.with(t)
			out := filepath.Join(outside, c.name)
			in := filepath.Join(root, c.name)
			s.ok(c.tool, c.args)
			if got := disk(t, root, c.name); got != c.want {
				t.Errorf("workspace %s = %q, want %q", c.name, got, c.want)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != original {
				t.Errorf("%s wrote through the hard link: the file outside the workspace now holds %q", c.tool, b)
			}
			inIno, inN := claimInode(t, in)
			outIno, outN := claimInode(t, out)
			if inN != 1 {
				t.Errorf("workspace %s has %d links after %s, want 1 (the link must be broken)", c.name, inN, c.tool)
			}
			if outN != 1 {
				t.Errorf("outside %s has %d links after %s, want 1", c.name, outN, c.tool)
			}
			if inIno == outIno {
				t.Errorf("%s: the workspace name still points at the outside file's inode %d", c.tool, inIno)
			}
		})
	}
	noTempFiles(t, root)
}

// TestClaimRecursiveChangeChecksEveryPathInside holds juju to SECURITY.md,
// "Writes and the journal", What may be written: "nothing named .git or
// inside it ..., no secret" and "A recursive delete or a folder move checks
// every path inside first and refuses the whole change if one is not
// writable." A folder holding an ordinary file beside a secret (.env, as
// SECRET_DENIED) or .git internals (PATH_DENIED) deeper down is neither
// deleted nor moved, and nothing of it goes: not even the ordinary file.
func TestClaimRecursiveChangeChecksEveryPathInside(t *testing.T) {
	cases := []struct {
		name, inner, code string
	}{
		{"secret", "d/sub/.env", "SECRET_DENIED"},
		{"git internals", "d/sub/.git/config", "PATH_DENIED"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := workspace(t, map[string]string{
				"d/a.txt": "a\n",
				c.inner:   "inner\n",
			})
			s := start(t, root, "--mode", "trusted")
			// The refusal names the path inside that is not writable.
			refused := strings.TrimSuffix(c.inner, "/config")
			named := func(t *testing.T, msg string) {
				t.Helper()
				if !strings.Contains(msg, refused) {
					t.Errorf("the refusal does not name %s: %s", refused, msg)
				}
			}
			unchanged := func(t *testing.T, after string) {
				t.Helper()
				if !fileExists(root, "d/a.txt") || disk(t, root, "d/a.txt") != "a\n" {
					t.Errorf("after a refused %s, d/a.txt is gone or changed", after)
				}
				if !fileExists(root, c.inner) || disk(t, root, c.inner) != "inner\n" {
					t.Errorf("after a refused %s, %s is gone or changed", after, c.inner)
				}
			}

			t.Run("delete_path", func(t *testing.T) {
				s := s.with(t)
				msg := s.fail("delete_path", map[string]any{"path": "d", "recursive": true}, c.code)
				named(t, msg)
				unchanged(t, "recursive delete")
			})
			t.Run("move_path", func(t *testing.T) {
				s := s.with(t)
				msg := s.fail("move_path", map[string]any{"path": "d", "destination": "e"}, c.code)
				named(t, msg)
				unchanged(t, "folder move")
				absent(t, root, "e")
			})
			// The folder without the refused path is writable: the
			// refusal came from the path inside, not from the folder.
			t.Run("allowed once it is gone", func(t *testing.T) {
				s := s.with(t)
				if err := os.RemoveAll(filepath.Join(root, "d", "sub")); err != nil {
					t.Fatal(err)
				}
				s.ok("move_path", map[string]any{"path": "d", "destination": "e"})
				if disk(t, root, "e/a.txt") != "a\n" {
					t.Fatal("e/a.txt not moved")
				}
				absent(t, root, "d")
				s.ok("delete_path", map[string]any{"path": "e", "recursive": true})
				absent(t, root, "e")
			})
			noTempFiles(t, root)
		})
	}
}

// TestClaimChangeTouchesAtMost5000Paths holds juju to SECURITY.md, "Writes
// and the journal", Bounds: a change "touches at most 5,000 paths; larger
// is TOO_LARGE". A recursive delete of a folder holding 5,001 files is
// TOO_LARGE and removes nothing (the change is all-or-nothing).
func TestClaimChangeTouchesAtMost5000Paths(t *testing.T) {
	root := workspace(t, map[string]string{"keep.txt": "x\n"})
	const files = 5001
	for i := range files {
		dir := filepath.Join(root, "big", fmt.Sprintf("d%02d", i/100))
		if i%100 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d", i)), []byte{'x'}, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := start(t, root, "--mode", "trusted")
	msg := s.fail("delete_path", map[string]any{"path": "big", "recursive": true}, "TOO_LARGE")
	if !strings.Contains(msg, "5000") && !strings.Contains(msg, "5,000") {
		t.Errorf("TOO_LARGE message does not name the bound: %s", msg)
	}
	if n := claimCountFiles(t, filepath.Join(root, "big")); n != files {
		t.Fatalf("after the refused delete %d of %d files are left", n, files)
	}
	noTempFiles(t, root)
}

// TestClaimLinkChainsStopAfter40Links holds juju to SECURITY.md, "The path
// policy": "Link loops stop after 40 links" (INVALID_ARGUMENT, as
// internal/policy's doc says). A chain of exactly 40 symlinks inside the
// workspace is followed to its file; one link more, and a true loop, are
// INVALID_ARGUMENT, answered rather than hung on.
func TestClaimLinkChainsStopAfter40Links(t *testing.T) {
	files := map[string]string{
		"target.txt": "end of the chain\n",
		"l01":        "->target.txt",
		"loop/a":     "->b",
		"loop/b":     "->a",
	}
	for i := 2; i <= 41; i++ {
		files[fmt.Sprintf("l%02d", i)] = fmt.Sprintf("->l%02d", i-1)
	}
	root := workspace(t, files)
	s := start(t, root, "--mode", "trusted")

	if got := s.ok("read_file", map[string]any{"path": "l40"}); !strings.Contains(got, "end of the chain") {
		t.Fatalf("read_file through 40 links: %s", got)
	}
	msg := s.fail("read_file", map[string]any{"path": "l41"}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "40") {
		t.Errorf("the refusal does not name the bound of 40 links: %s", msg)
	}
	s.fail("read_file", map[string]any{"path": "loop/a"}, "INVALID_ARGUMENT")
}
