package test

import (
	"strings"
	"testing"
)

// An expectedSha256 that is not a whole sha256 (the shortened one a
// FILE_CHANGED message shows, say) is INVALID_ARGUMENT saying what to
// pass, not FILE_CHANGED, which sent the model to read the file again and
// pass the same thing.
func TestExpectedSha256MustBeWhole(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "one\n"})
	s := start(t, root, "--mode", "trusted")
	for _, bad := range []string{sha("one\n")[:12], sha("one\n")[:12] + "…", "not a hash"} {
		msg := s.fail("edit_file", map[string]any{"path": "a.txt", "oldString": "one", "newString": "two", "expectedSha256": bad}, "INVALID_ARGUMENT")
		if !strings.Contains(msg, "64 hex digits") {
			t.Errorf("%q: %s", bad, msg)
		}
	}
	s.fail("delete_path", map[string]any{"path": "a.txt", "expectedSha256": "abc"}, "INVALID_ARGUMENT")
	s.ok("edit_file", map[string]any{"path": "a.txt", "oldString": "one", "newString": "two", "expectedSha256": strings.ToUpper(sha("one\n"))})
	if got := disk(t, root, "a.txt"); got != "two\n" {
		t.Fatalf("bytes: %q", got)
	}
}
