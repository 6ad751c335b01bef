package test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPatchHeaderMustAgreeWithItsFileLines holds that apply_patch refuses
// a git patch whose extended header says another thing than its --- and
// +++ lines, as git apply does: a rename of a.txt to c.txt whose lines
// both name a.txt, a "new file mode" whose --- line names a file. juju
// went by the --- and +++ lines alone: it changed a.txt in place, renamed
// nothing, and answered that the patch applied.
func TestPatchHeaderMustAgreeWithItsFileLines(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	s := start(t, root)
	for name, patch := range map[string]string{
		"rename": "diff --git a/a.txt b/c.txt\nsimilarity index 90%\nrename from a.txt\nrename to c.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+A\n",
		"new":    "diff --git a/a.txt b/a.txt\nnew file mode 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+A\n",
		"delete": "diff --git a/a.txt b/a.txt\ndeleted file mode 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+A\n",
	} {
		g := t.TempDir()
		os.WriteFile(filepath.Join(g, "a.txt"), []byte("a\n"), 0o644)
		cmd := exec.Command("git", "apply", "--check", "-")
		cmd.Dir, cmd.Stdin = g, strings.NewReader(patch)
		if out, err := cmd.CombinedOutput(); err == nil {
			t.Fatalf("%s: git apply takes the patch (%s); this test expects it refused", name, out)
		}
		s.fail("apply_patch", map[string]any{"patch": patch}, "INVALID_ARGUMENT")
		if disk(t, root, "a.txt") != "a\n" {
			t.Fatalf("%s: a refused patch changed a.txt", name)
		}
		absent(t, root, "c.txt")
	}
	// Header and lines agreeing, the rename is made with the edit.
	s.ok("apply_patch", map[string]any{"patch": "diff --git a/a.txt b/c.txt\nsimilarity index 90%\nrename from a.txt\nrename to c.txt\n--- a/a.txt\n+++ b/c.txt\n@@ -1 +1 @@\n-a\n+A\n"})
	if disk(t, root, "c.txt") != "A\n" {
		t.Fatal("the rename with an edit did not land")
	}
	absent(t, root, "a.txt")
}
