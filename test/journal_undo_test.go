package test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// apply_patch that makes a.sh executable, and nothing else of it, and
// edits b.txt, which cannot be replaced (immutable): the answer says
// nothing was changed, and a.sh has its old mode again.
func TestFailedPatchPutsBackAMode(t *testing.T) {
	root := workspace(t, map[string]string{"a.sh": "echo hi\n", "b.txt": "one\n"})
	if err := os.Chmod(filepath.Join(root, "a.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := filepath.Join(root, "b.txt")
	if err := exec.Command("chattr", "+i", b).Run(); err != nil {
		t.Skipf("chattr +i: %v (needs CAP_LINUX_IMMUTABLE and a file system with the flag)", err)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", b).Run() })
	s := start(t, root)
	patch := "diff --git a/a.sh b/a.sh\nold mode 100644\nnew mode 100755\n" +
		"diff --git a/b.txt b/b.txt\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-one\n+two\n"
	res := s.call("apply_patch", map[string]any{"patch": patch})
	if !res.IsError {
		t.Fatalf("the patch of an immutable file succeeded: %s", text(res))
	}
	if fi, err := os.Stat(filepath.Join(root, "a.sh")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("a.sh after a failed change: %v %v, want -rw-r--r--", fi.Mode(), err)
	}
	if h := s.ok("change_history", map[string]any{}); strings.Contains(h, "apply_patch") {
		t.Fatalf("a failed change was recorded: %s", h)
	}
	noTempFiles(t, root)
}

// delete_path of a folder holding names that are not UTF-8 is refused,
// saying to use a command, and the files stay: recorded as U+FFFD, two of
// them became one name, and the rollback lost both.
func TestFolderWithNamesNotUTF8IsNotDeleted(t *testing.T) {
	root := workspace(t, map[string]string{"vendor/keep.txt": "k\n"})
	for name, content := range map[string]string{"a\xfe.txt": "first\n", "a\xff.txt": "second\n"} {
		if err := os.WriteFile(filepath.Join(root, "vendor", name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := start(t, root)
	msg := s.fail("delete_path", map[string]any{"path": "vendor", "recursive": true}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, `"vendor"`) || !strings.Contains(msg, "run_command") {
		t.Fatalf("the refusal names no folder or no way on: %s", msg)
	}
	if disk(t, root, "vendor/a\xfe.txt") != "first\n" || disk(t, root, "vendor/a\xff.txt") != "second\n" {
		t.Fatal("the files changed")
	}
}

// Folders and files at the names juju once used for its temporary files
// (.juju-c000001-0.tmp …) stop no write and are left as they are.
func TestTakenTempNamesStopNoWrite(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	for i := 1; i <= 3; i++ {
		if err := os.MkdirAll(filepath.Join(root, fmt.Sprintf(".juju-c%06d-0.tmp", i), "x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mine := filepath.Join(root, ".juju-c000004-0.tmp")
	if err := os.WriteFile(mine, []byte("someone's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := start(t, root)
	for i := range 4 {
		s.ok("write_file", map[string]any{"path": "a.txt", "content": fmt.Sprintf("v%d\n", i)})
	}
	if b, err := os.ReadFile(mine); err != nil || string(b) != "someone's\n" {
		t.Fatalf("a file at a temporary name juju once used: %q %v", b, err)
	}
	for i := 1; i <= 3; i++ {
		if _, err := os.Stat(filepath.Join(root, fmt.Sprintf(".juju-c%06d-0.tmp", i), "x")); err != nil {
			t.Fatal(err)
		}
	}
}
