package test

import (
	"strings"
	"testing"
)

// Through the real binary: apply_patch puts a hunk without context lines
// exactly where it says or refuses the whole patch, and a Codex patch is
// refused with the shape of a unified diff spelled out.
func TestApplyPatchInsertionsAndCodex(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "1\n2\n3\n4\n5\n6\n", "b.txt": "b\n"})
	s := start(t, root, "--mode", "trusted")
	// The second hunk inserts after line 2, above the first hunk: it went
	// after line 5, and the patch was reported applied.
	patch := "--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-b\n+B\n--- a/a.txt\n+++ b/a.txt\n@@ -4,2 +4,2 @@\n 4\n-5\n+five\n@@ -2,0 +3 @@\n+2b\n"
	msg := s.fail("apply_patch", map[string]any{"patch": patch}, "CONFLICT")
	if !strings.Contains(msg, "hunk 2") || !strings.Contains(msg, "in order") {
		t.Errorf("message: %s", msg)
	}
	if disk(t, root, "a.txt") != "1\n2\n3\n4\n5\n6\n" || disk(t, root, "b.txt") != "b\n" {
		t.Fatal("a refused patch wrote")
	}
	s.ok("apply_patch", map[string]any{"patch": "--- a/a.txt\n+++ b/a.txt\n@@ -2,0 +3 @@\n+2b\n@@ -4,2 +5,2 @@\n 4\n-5\n+five\n"})
	if got := disk(t, root, "a.txt"); got != "1\n2\n2b\n3\n4\nfive\n6\n" {
		t.Fatalf("in place: %q", got)
	}
	msg = s.fail("apply_patch", map[string]any{"patch": "*** Begin Patch\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch\n"}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "Codex") || !strings.Contains(msg, "+++ b/PATH") {
		t.Errorf("Codex patch: %s", msg)
	}
}
