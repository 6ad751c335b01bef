package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file the client made or changed and never read is its view too: the
// writer knows what it wrote. When another program changes it since, the
// client's next write_file or edit_file from that view is FILE_CHANGED, as
// for a file it read, where the write replaced the other's lines without
// a word. Its own consecutive changes still need no read.
func TestWrittenFileChangedSinceIsFileChanged(t *testing.T) {
	root := workspace(t, map[string]string{"notes.md": "draft\n"})
	s := start(t, root, "--mode", "trusted")
	s.ok("write_file", map[string]any{"path": "new.txt", "content": "model v1\n"})
	s.ok("edit_file", map[string]any{"path": "new.txt", "oldString": "v1", "newString": "v2"})
	s.ok("write_file", map[string]any{"path": "new.txt", "content": "model v3\n"})
	s.ok("edit_file", map[string]any{"path": "notes.md", "oldString": "draft", "newString": "draft, edited"})
	for _, name := range []string{"new.txt", "notes.md"} {
		f, err := os.OpenFile(filepath.Join(root, name), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("the owner's line\n")
		f.Close()
	}
	msg := s.fail("write_file", map[string]any{"path": "new.txt", "content": "model v4\n"}, "FILE_CHANGED")
	if !strings.Contains(msg, "read it again") {
		t.Errorf("message: %s", msg)
	}
	s.fail("edit_file", map[string]any{"path": "notes.md", "oldString": "draft, edited", "newString": "final"}, "FILE_CHANGED")
	if got := disk(t, root, "new.txt"); got != "model v3\nthe owner's line\n" {
		t.Fatalf("the owner's line was overwritten: %q", got)
	}
	if got := disk(t, root, "notes.md"); got != "draft, edited\nthe owner's line\n" {
		t.Fatalf("notes.md: %q", got)
	}
	s.ok("read_file", map[string]any{"path": "new.txt"})
	s.ok("write_file", map[string]any{"path": "new.txt", "content": "model v4\nthe owner's line\n"})
}
