package test

import (
	"path/filepath"
	"strings"
	"testing"
)

// A dry run's text says what would happen in sentences a model reads
// right: apply_patch's began "Applied the patch would touch", which reads
// as done, and replace_in_files' ran its hint into "… expectedCount 3.
// would touch".
func TestDryRunsSayWhatWouldHappen(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "one\ntwo\n", "b.txt": "two\n"})
	s := start(t, root)
	got := s.ok("apply_patch", map[string]any{"dryRun": true,
		"patch": "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n"})
	if !strings.HasPrefix(got, "Dry run, nothing was written. Every hunk of the patch applies.\nIt would touch 1 path(s):\n") || strings.Contains(got, "Applied") {
		t.Fatalf("apply_patch's dry run:\n%s", got)
	}
	got = s.ok("replace_in_files", map[string]any{"oldString": "two", "newString": "2", "fileGlob": "*.txt"})
	if !strings.Contains(got, "expectedCount 2.\nIt would touch 2 path(s):\n") {
		t.Fatalf("replace_in_files' dry run:\n%s", got)
	}
	if a, b := specwriteRead(t, filepath.Join(root, "a.txt")), specwriteRead(t, filepath.Join(root, "b.txt")); a != "one\ntwo\n" || b != "two\n" {
		t.Fatalf("a dry run wrote: a.txt %q, b.txt %q", a, b)
	}
}
