package test

import (
	"strings"
	"testing"
)

// replace_in_files reads a fileGlob ending in a slash as that folder and
// what it holds, as search_code does: a model that searched with fileGlob
// "src/" and replaced with the same glob was told that no file matched.
// A glob without a wildcard that matches nothing says how to name a
// folder.
func TestReplaceInFilesFolderGlob(t *testing.T) {
	root := workspace(t, map[string]string{
		"src/a.go":     "old\n",
		"src/sub/b.go": "old\n",
		"other/c.go":   "old\n",
	})
	s := start(t, root, "--mode", "trusted")
	found := s.ok("search_code", map[string]any{"pattern": "old", "fileGlob": "src/", "outputMode": "files"})
	if !strings.Contains(found, "src/sub/b.go") {
		t.Fatalf("search_code does not search the folder: %s", found)
	}
	out := s.ok("replace_in_files", map[string]any{"oldString": "old", "newString": "new", "fileGlob": "src/", "dryRun": false})
	if !strings.Contains(out, "2 occurrence(s) in 2 file(s)") {
		t.Fatalf("replace_in_files with fileGlob src/: %s", out)
	}
	for path, want := range map[string]string{"src/a.go": "new\n", "src/sub/b.go": "new\n", "other/c.go": "old\n"} {
		if got := disk(t, root, path); got != want {
			t.Errorf("%s: %q, want %q", path, got, want)
		}
	}
	msg := s.fail("replace_in_files", map[string]any{"oldString": "old", "newString": "new", "fileGlob": "other"}, "NO_MATCH")
	if !strings.Contains(msg, `"other/**"`) {
		t.Errorf("the NO_MATCH of a glob naming a folder does not say how to name it: %s", msg)
	}
}
