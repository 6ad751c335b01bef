package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Paths written as for a shell or a browser: a file:// URL and a name
// with a space after it no longer make a folder "file:" (with the URL's
// whole path below it) or a file whose name a listing shows without its
// space, and a read of such a path, or of ~/..., says why it does not
// exist instead of only that it does not. A name that already has the
// space is read and edited as it is.
func TestPathFormsFromShellsAndBrowsers(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n", "old.md ": "kept\n"})
	s := start(t, root, "--mode", "trusted")
	for _, c := range []struct{ path, want string }{
		{"file://" + filepath.Join(root, "new.md"), "not file:// URLs"},
		{"FILE:///tmp/new.md", "not file:// URLs"},
		{"new.md ", "begins or ends in white space"},
		{" new.md", "begins or ends in white space"},
		{"docs /new.md", "begins or ends in white space"},
	} {
		msg := s.fail("write_file", map[string]any{"path": c.path, "content": "x\n"}, "INVALID_ARGUMENT")
		if !strings.Contains(msg, c.want) {
			t.Errorf("write_file %q: the message lacks %q: %s", c.path, c.want, msg)
		}
		s.fail("edit_file", map[string]any{"path": c.path, "oldString": "", "newString": "x\n"}, "INVALID_ARGUMENT")
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("a refused write made %q", names)
	}
	for _, c := range []struct{ path, want string }{
		{"~/a.txt", "does not expand ~"},
		{"~", "does not expand ~"},
		{"file://" + filepath.Join(root, "a.txt"), "not file:// URLs"},
		{"a.txt ", "begins or ends in white space"},
	} {
		msg := s.fail("read_file", map[string]any{"path": c.path}, "NOT_FOUND")
		if !strings.Contains(msg, c.want) {
			t.Errorf("read_file %q: the message lacks %q: %s", c.path, c.want, msg)
		}
	}
	if got := s.ok("read_file", map[string]any{"path": "old.md "}); got != "kept\n" {
		t.Errorf("a name with a space read as %q", got)
	}
	s.ok("edit_file", map[string]any{"path": "old.md ", "oldString": "kept", "newString": "edited"})
}
