package test

import (
	"strings"
	"testing"
)

// make_directory of a folder that is there says so, not that "the files
// already hold that content", which spoke of files for a folder.
func TestMakeDirectoryOfAFolderThatIsThere(t *testing.T) {
	root := workspace(t, map[string]string{"d/x": "x\n"})
	s := start(t, root, "--mode", "trusted")
	for _, p := range []string{"d", "d/"} {
		out := s.ok("make_directory", map[string]any{"path": p})
		if !strings.Contains(out, p+" is already a folder; nothing was changed") || strings.Contains(out, "content") {
			t.Errorf("%s: %s", p, out)
		}
	}
	if out := s.ok("make_directory", map[string]any{"path": "e/f"}); !strings.Contains(out, "Made e/f: change ") {
		t.Errorf("a new folder: %s", out)
	}
}
