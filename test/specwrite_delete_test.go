package test

import (
	"os"
	"path/filepath"
	"testing"
)

// Every write checks the file's pre-image against what the client last
// read or wrote: a file changed on disk since is FILE_CHANGED, delete_path
// included. It deleted a file the owner had added a line to since the
// client read it, and the client never saw the line it threw away.
func TestDeleteOfAFileChangedSinceReadIsFileChanged(t *testing.T) {
	root := workspace(t, map[string]string{"notes.md": "draft\n"})
	s := start(t, root, "--mode", "trusted")
	s.ok("read_file", map[string]any{"path": "notes.md"})
	s.ok("write_file", map[string]any{"path": "new.txt", "content": "model v1\n"})
	for _, name := range []string{"notes.md", "new.txt"} {
		f, err := os.OpenFile(filepath.Join(root, name), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("the owner's line\n")
		f.Close()
	}
	s.fail("delete_path", map[string]any{"path": "notes.md"}, "FILE_CHANGED")
	s.fail("delete_path", map[string]any{"path": "new.txt"}, "FILE_CHANGED")
	if got := specwriteRead(t, filepath.Join(root, "notes.md")); got != "draft\nthe owner's line\n" {
		t.Fatalf("notes.md: %q", got)
	}
	if got := specwriteRead(t, filepath.Join(root, "new.txt")); got != "model v1\nthe owner's line\n" {
		t.Fatalf("new.txt: %q", got)
	}
	// Read again, the client has seen the line, and the delete goes ahead.
	s.ok("read_file", map[string]any{"path": "notes.md"})
	s.ok("delete_path", map[string]any{"path": "notes.md"})
	if _, err := os.Lstat(filepath.Join(root, "notes.md")); !os.IsNotExist(err) {
		t.Fatalf("notes.md after its delete: %v", err)
	}
}

// move_path with overwrite replaces the destination, which is lost as a
// deleted file is: one changed since the client read it is FILE_CHANGED.
func TestMoveOverAFileChangedSinceReadIsFileChanged(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	s := start(t, root, "--mode", "trusted")
	s.ok("read_file", map[string]any{"path": "b.txt"})
	f, err := os.OpenFile(filepath.Join(root, "b.txt"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("the owner's line\n")
	f.Close()
	s.fail("move_path", map[string]any{"path": "a.txt", "destination": "b.txt", "overwrite": true}, "FILE_CHANGED")
	if a, b := specwriteRead(t, filepath.Join(root, "a.txt")), specwriteRead(t, filepath.Join(root, "b.txt")); a != "a\n" || b != "b\nthe owner's line\n" {
		t.Fatalf("a.txt %q, b.txt %q", a, b)
	}
	s.ok("read_file", map[string]any{"path": "b.txt"})
	s.ok("move_path", map[string]any{"path": "a.txt", "destination": "b.txt", "overwrite": true})
	if got := specwriteRead(t, filepath.Join(root, "b.txt")); got != "a\n" {
		t.Fatalf("b.txt after the move: %q", got)
	}
}
