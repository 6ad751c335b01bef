package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPatchDoesNotDeleteOrMoveALinksTarget holds juju to SECURITY.md,
// "Writes and the journal": a delete or move acts on the link itself.
// apply_patch followed a patch's old path as a write does, so a patch
// deleting docs/current.md, a link to README.md, deleted README.md and
// left the link dangling, and a rename of a link moved its target's
// content. Such a patch is refused, naming delete_path and move_path;
// a patch that modifies the link's content still edits its target.
func TestPatchDoesNotDeleteOrMoveALinksTarget(t *testing.T) {
	root := workspace(t, map[string]string{"README.md": "hello\n", "docs/current.md": "->../README.md", "x.md": "->README.md"})
	s := start(t, root)
	for _, patch := range []string{
		"--- a/docs/current.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-hello\n",
		"diff --git a/docs/current.md b/docs/current.md\ndeleted file mode 100644\n--- a/docs/current.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-hello\n",
		"diff --git a/x.md b/y.md\nsimilarity index 100%\nrename from x.md\nrename to y.md\n",
		"diff --git a/x.md b/y.md\nrename from x.md\nrename to y.md\n--- a/x.md\n+++ b/y.md\n@@ -1 +1 @@\n-hello\n+bye\n",
	} {
		if msg := s.fail("apply_patch", map[string]any{"patch": patch}, "INVALID_ARGUMENT"); !strings.Contains(msg, "symbolic link") || !strings.Contains(msg, "delete_path") {
			t.Errorf("the refusal does not say why: %s", msg)
		}
	}
	if got := disk(t, root, "README.md"); got != "hello\n" {
		t.Fatalf("README.md = %q", got)
	}
	for _, n := range []string{"docs/current.md", "x.md"} {
		if fi, err := os.Lstat(filepath.Join(root, n)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is no longer the link: %v", n, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(root, "y.md")); err == nil {
		t.Errorf("y.md was made")
	}
	s.ok("apply_patch", map[string]any{"patch": "--- a/x.md\n+++ b/x.md\n@@ -1 +1 @@\n-hello\n+bye\n"})
	if got := disk(t, root, "README.md"); got != "bye\n" {
		t.Errorf("a patch modifying the link did not edit its target: README.md = %q", got)
	}
}
