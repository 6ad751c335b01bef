package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A workspace root is never deleted or moved by file tools, however it is
// named: by its absolute path, whose folder lies outside the roots (the
// answer says it is a root, and names no host path outside the roots), or
// through another root that holds it.
func TestRootsAreNeverDeletedOrMoved(t *testing.T) {
	outer := workspace(t, map[string]string{"build/f.txt": "f\n", "build/sub/g.txt": "g\n", "top.txt": "t\n"})
	inner := filepath.Join(outer, "build")
	s := start(t, inner, "--root", outer)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"delete_path", map[string]any{"path": outer, "recursive": true}},
		{"delete_path", map[string]any{"path": inner, "recursive": true}},
		{"move_path", map[string]any{"path": outer, "destination": "x"}},
		{"move_path", map[string]any{"path": inner, "destination": filepath.Join(outer, "moved")}},
		{"move_path", map[string]any{"path": inner, "destination": "inner"}},
	} {
		msg := s.fail(c.tool, c.args, "PATH_DENIED")
		if !strings.Contains(msg, "workspace root") || strings.Contains(msg, filepath.Dir(outer)+`"`) {
			t.Errorf("%s %v: %q, want it named a workspace root, and no folder outside the roots", c.tool, c.args, msg)
		}
	}
	for _, f := range []string{"build/f.txt", "build/sub/g.txt", "top.txt"} {
		if _, err := os.Stat(filepath.Join(outer, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// With one root inside another, a path has a spelling in each: a folder
// moved inside itself, or a file onto itself, is refused as such whichever
// spellings name them, and nothing is lost.
func TestNestedRootsMoveComparesRealPaths(t *testing.T) {
	outer := workspace(t, map[string]string{"build/f.txt": "f\n", "build/sub/g.txt": "g\n"})
	inner := filepath.Join(outer, "build")
	s := start(t, inner, "--root", outer)
	msg := s.fail("move_path", map[string]any{"path": filepath.Join(outer, "build", "sub"), "destination": "sub/deeper"}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "inside itself") {
		t.Errorf("a folder moved inside itself: %q", msg)
	}
	msg = s.fail("move_path", map[string]any{"path": filepath.Join(outer, "build", "f.txt"), "destination": "f.txt", "overwrite": true}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "same path") {
		t.Errorf("a file moved onto itself: %q", msg)
	}
	for _, f := range []string{"build/f.txt", "build/sub/g.txt"} {
		if _, err := os.Stat(filepath.Join(outer, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
