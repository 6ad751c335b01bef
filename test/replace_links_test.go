package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// replace_in_files reads a symlink its glob matches through to its file,
// as glob_files lists it and write_file writes through it: a glob that
// matched only links answered that no file matched, and glob_files, which
// the answer named, listed them. A file matched under several names is
// replaced in once, and every link stays a link.
func TestReplaceInFilesFollowsLinksToFiles(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "foo\n", "README.md": "foo foo\n", "links/keep": "", ".env": "foo\n"})
	for link, target := range map[string]string{"links/l.txt": "../a.txt", "links/r.md": "../README.md", "l2.txt": "a.txt", "env.txt": ".env"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Skip(err)
		}
	}
	s := start(t, root, "--mode", "trusted")
	out := s.ok("replace_in_files", map[string]any{"oldString": "foo", "newString": "bar", "fileGlob": "links/*.md", "dryRun": false})
	if !strings.Contains(out, "modified    README.md (+1 -1), 2 replacement(s)") {
		t.Fatalf("a glob matching a link:\n%s", out)
	}
	res := s.call("replace_in_files", map[string]any{"oldString": "foo", "newString": "baz", "fileGlob": "**/*.txt", "dryRun": false})
	if res.IsError {
		t.Fatalf("a glob matching a file and two links to it: %s", text(res))
	}
	if got := structured(t, res)["replacements"]; got != float64(1) {
		t.Errorf("a.txt under three names: replacements %v, want 1\n%s", got, text(res))
	}
	if !strings.Contains(text(res), "secrets") {
		t.Errorf("the link to a secret is not said to be left out:\n%s", text(res))
	}
	if disk(t, root, "a.txt") != "baz\n" || disk(t, root, "README.md") != "bar bar\n" || disk(t, root, ".env") != "foo\n" {
		t.Fatalf("contents: %q %q", disk(t, root, "a.txt"), disk(t, root, "README.md"))
	}
	for _, link := range []string{"links/l.txt", "links/r.md", "l2.txt"} {
		if fi, err := os.Lstat(filepath.Join(root, link)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link: %v", link, err)
		}
	}
}
