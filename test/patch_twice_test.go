package test

import (
	"strings"
	"testing"
)

// TestPatchCreatingAFileTwiceSaysSo holds that a patch with two
// --- /dev/null sections for one new file is a CONFLICT that says the
// patch itself made the file already, and that it is not on disk: juju
// answered that the file "already exists" and to read it, and the read
// the model made next was NOT_FOUND. The same holds for a plan whose
// write made the file a patch then creates. A file that is on disk is
// still said to exist.
func TestPatchCreatingAFileTwiceSaysSo(t *testing.T) {
	root := workspace(t, map[string]string{"old.txt": "o\n"})
	s := start(t, root)
	create := func(name, line string) string {
		return "--- /dev/null\n+++ b/" + name + "\n@@ -0,0 +1 @@\n+" + line + "\n"
	}
	for name, args := range map[string]map[string]any{
		"apply_patch":     {"patch": create("n.txt", "x") + create("n.txt", "y")},
		"preview_changes": {"operations": []any{map[string]any{"op": "write", "path": "n.txt", "content": "x\n"}}, "patch": create("n.txt", "y")},
	} {
		msg := s.fail(name, args, "CONFLICT")
		if !strings.Contains(msg, "this change has already made") || !strings.Contains(msg, "does not exist on disk") || strings.Contains(msg, "Read it") {
			t.Fatalf("%s: the conflict does not say the patch made the file itself: %s", name, msg)
		}
		absent(t, root, "n.txt")
	}
	if msg := s.fail("apply_patch", map[string]any{"patch": create("old.txt", "x")}, "CONFLICT"); !strings.Contains(msg, "already exists") {
		t.Fatalf("a file on disk: %s", msg)
	}
}
