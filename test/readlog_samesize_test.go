package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSameSizeRewriteSinceReadIsFileChanged: a file rewritten since the
// client read it, with content of the same size and its modification time
// set back (as a rewrite within one tick of the file system's clock leaves
// it), is FILE_CHANGED to edit_file and write_file without
// expectedSha256. The read's stamp was the time and the size alone, so the
// edit applied to content the client never saw. It holds for a file the
// read held whole, for one read by lines past its head, and for
// read_files; and the client's own consecutive edits still need no read.
func TestSameSizeRewriteSinceReadIsFileChanged(t *testing.T) {
	long := strings.Repeat("filler line\n", 2000) // past the 8 KiB head
	for _, c := range []struct{ name, body, tool string }{
		{"small, read_file", "alpha = 1\n", "read_file"},
		{"long, read_file", long + "alpha = 1\n", "read_file"},
		{"small, read_files", "alpha = 1\n", "read_files"},
		{"long, read_files", long + "alpha = 1\n", "read_files"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := workspace(t, map[string]string{"f.txt": c.body})
			s := start(t, root)
			name := filepath.Join(root, "f.txt")
			if c.tool == "read_file" {
				s.ok("read_file", map[string]any{"path": "f.txt"})
			} else {
				s.ok("read_files", map[string]any{"paths": []string{"f.txt"}})
			}
			fi, err := os.Stat(name)
			if err != nil {
				t.Fatal(err)
			}
			other := strings.Replace(c.body, "alpha = 1", "alpha = 2", 1)
			if err := os.WriteFile(name, []byte(other), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(name, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
			s.fail("edit_file", map[string]any{"path": "f.txt", "oldString": "alpha", "newString": "beta"}, "FILE_CHANGED")
			s.fail("write_file", map[string]any{"path": "f.txt", "content": "replaced\n"}, "FILE_CHANGED")
			if disk(t, root, "f.txt") != other {
				t.Fatal("written despite FILE_CHANGED")
			}
			// Read again, the client edits twice in a row.
			s.ok("read_file", map[string]any{"path": "f.txt"})
			s.ok("edit_file", map[string]any{"path": "f.txt", "oldString": "alpha = 2", "newString": "alpha = 3"})
			s.ok("edit_file", map[string]any{"path": "f.txt", "oldString": "alpha = 3", "newString": "alpha = 4"})
			if got := disk(t, root, "f.txt"); !strings.HasSuffix(got, "alpha = 4\n") {
				t.Fatalf("the edits did not land: %q", got[max(len(got)-20, 0):])
			}
		})
	}
}
