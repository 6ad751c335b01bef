package test

import (
	"strings"
	"testing"
)

// TestPatchConvertingLineEndsSaysItChangesNothing holds that a patch
// whose hunks only turn a file's CRLF line ends into LF, or LF into CRLF,
// as git diff writes such a conversion, is INVALID_ARGUMENT naming the
// commands that convert, as edit_file's is: a patch keeps a file's line
// ends, so juju answered "nothing to change (the files already hold that
// content)", which they did not, and in a patch of several files the
// conversion was left out of one reported applied. The other file of the
// patch is not written either.
func TestPatchConvertingLineEndsSaysItChangesNothing(t *testing.T) {
	root := workspace(t, map[string]string{"crlf.txt": "a\r\nb\r\n", "lf.txt": "a\nb\n", "other.txt": "x\n"})
	s := start(t, root)
	other := "--- a/other.txt\n+++ b/other.txt\n@@ -1 +1 @@\n-x\n+y\n"
	for name, patch := range map[string]string{
		"crlf.txt": "diff --git a/crlf.txt b/crlf.txt\n--- a/crlf.txt\n+++ b/crlf.txt\n@@ -1,2 +1,2 @@\n-a\r\n-b\r\n+a\n+b\n",
		"lf.txt":   "diff --git a/lf.txt b/lf.txt\n--- a/lf.txt\n+++ b/lf.txt\n@@ -1,2 +1,2 @@\n-a\n-b\n+a\r\n+b\r\n",
	} {
		msg := s.fail("apply_patch", map[string]any{"patch": other + patch}, "INVALID_ARGUMENT")
		if !strings.Contains(msg, "differ only in their line ends") || !strings.Contains(msg, "dos2unix") || !strings.Contains(msg, `"`+name+`"`) {
			t.Fatalf("%s: the refusal does not say the patch only converts line ends: %s", name, msg)
		}
	}
	if disk(t, root, "crlf.txt") != "a\r\nb\r\n" || disk(t, root, "lf.txt") != "a\nb\n" || disk(t, root, "other.txt") != "x\n" {
		t.Fatal("a refused patch wrote")
	}
	// A hunk that changes text as well applies, in the file's own line ends.
	s.ok("apply_patch", map[string]any{"patch": "--- a/crlf.txt\n+++ b/crlf.txt\n@@ -1,2 +1,2 @@\n-a\r\n+A\n b\r\n"})
	if got := disk(t, root, "crlf.txt"); got != "A\r\nb\r\n" {
		t.Fatalf("crlf.txt: %q", got)
	}
}
