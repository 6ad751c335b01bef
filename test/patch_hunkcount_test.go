package test

import (
	"strings"
	"testing"
)

// TestHunkCountingTooFewLinesIsRefused holds that a hunk whose @@ line
// counts fewer lines than it holds is refused, naming the first line that
// would be left out, rather than applied without it: models count hunks
// by hand and often miss by one, and git apply and patch skip what
// follows a hunk's counted lines as text between files. apply_patch
// answered "Applied the patch" over an @@ -2,3 +2,3 hunk that also
// deleted l5, and l5 stayed; a deletion, an addition and a whole second
// change past the count were each dropped. A patch whose counts are right
// still applies, a mail's signature ("-- ") after its last hunk included.
func TestHunkCountingTooFewLinesIsRefused(t *testing.T) {
	lines := "l1\nl2\nl3\nl4\nl5\nl6\nl7\n"
	root := workspace(t, map[string]string{"f.txt": lines})
	s := start(t, root)
	head := "--- a/f.txt\n+++ b/f.txt\n"
	for name, c := range map[string]struct{ patch, left string }{
		"deletion": {"@@ -2,3 +2,3 @@\n l2\n-l3\n+X3\n l4\n-l5\n", `"-l5"`},
		"addition": {"@@ -2,2 +2,2 @@\n l2\n-l3\n+X3\n+NEW\n l4\n", `"+NEW"`},
		"change":   {"@@ -2,2 +2,2 @@\n l2\n-l3\n+X3\n l4\n-l5\n+X5\n l6\n", `"-l5"`},
	} {
		msg := s.fail("apply_patch", map[string]any{"patch": head + c.patch}, "INVALID_ARGUMENT")
		if !strings.Contains(msg, "more of its lines follow them") || !strings.Contains(msg, "("+c.left+") would be left out") {
			t.Fatalf("%s: the refusal does not say the hunk holds more lines than its @@ line counts: %s", name, msg)
		}
		if disk(t, root, "f.txt") != lines {
			t.Fatalf("%s: a refused patch changed f.txt: %q", name, disk(t, root, "f.txt"))
		}
	}
	s.ok("apply_patch", map[string]any{"patch": head + "@@ -2,4 +2,3 @@\n l2\n-l3\n+X3\n l4\n-l5\n-- \n2.43.0\n\n"})
	if got := disk(t, root, "f.txt"); got != "l1\nl2\nX3\nl4\nl6\nl7\n" {
		t.Fatalf("the patch counted right applied as %q", got)
	}
}
