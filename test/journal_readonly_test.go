package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadOnlyFilesAreNotChanged holds juju to SECURITY.md, "Writes and
// the journal": a file whose owner write bit is clear is not written,
// edited, patched, moved, overwritten or deleted by the file tools, nor
// by a rollback, forced or not. The journal replaces a file by a rename
// in its folder, which the file's own mode does not stop: edit_file, which
// runs unasked in edit mode, rewrote a test the owner had made read-only
// to keep it from the agent, and kept it read-only.
func TestReadOnlyFilesAreNotChanged(t *testing.T) {
	const locked = "func TestLocked(t *testing.T) { assert(1 == 1) }\n"
	root := workspace(t, map[string]string{
		"locked_test.go":  locked,
		"dir/inner.go":    locked,
		"free.go":         "package free\n",
		"later.txt":       "one\n",
		"other/free2.txt": "free\n",
	})
	for _, n := range []string{"locked_test.go", "dir/inner.go"} {
		if err := os.Chmod(filepath.Join(root, n), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	s := start(t, root)
	cases := []struct {
		tool string
		args map[string]any
	}{
		{"edit_file", map[string]any{"path": "locked_test.go", "oldString": "1 == 1", "newString": "true"}},
		{"write_file", map[string]any{"path": "locked_test.go", "content": "package x\n"}},
		{"apply_patch", map[string]any{"patch": "--- a/locked_test.go\n+++ b/locked_test.go\n@@ -1 +1 @@\n-" + strings.TrimSuffix(locked, "\n") + "\n+x\n"}},
		{"delete_path", map[string]any{"path": "locked_test.go"}},
		{"move_path", map[string]any{"path": "locked_test.go", "destination": "gone.go"}},
		{"move_path", map[string]any{"path": "free.go", "destination": "locked_test.go", "overwrite": true}},
		{"delete_path", map[string]any{"path": "dir", "recursive": true}},
		{"move_path", map[string]any{"path": "dir", "destination": "dir2"}},
		{"replace_in_files", map[string]any{"oldString": "1 == 1", "newString": "true", "fileGlob": "**/*.go", "dryRun": false}},
		{"preview_changes", map[string]any{"operations": []any{map[string]any{"op": "edit", "path": "locked_test.go", "oldString": "1 == 1", "newString": "true"}}}},
	}
	for _, c := range cases {
		msg := s.fail(c.tool, c.args, "PATH_DENIED")
		if !strings.Contains(msg, "read-only") {
			t.Errorf("%s(%v): the refusal does not say the file is read-only: %s", c.tool, c.args, msg)
		}
	}
	for _, n := range []string{"locked_test.go", "dir/inner.go"} {
		if got := disk(t, root, n); got != locked {
			t.Errorf("%s now holds %q", n, got)
		}
	}
	for _, n := range []string{"gone.go", "dir2", "free.go"} {
		if _, err := os.Lstat(filepath.Join(root, n)); (err == nil) != (n == "free.go") {
			t.Errorf("%s: %v", n, err)
		}
	}

	// A file made read-only after a change is not rolled back over.
	out := s.ok("edit_file", map[string]any{"path": "later.txt", "oldString": "one", "newString": "two"})
	id := strings.Fields(strings.SplitN(out, "change ", 2)[1])[0]
	id = strings.TrimSuffix(id, ",")
	os.Chmod(filepath.Join(root, "later.txt"), 0o444)
	for _, force := range []bool{false, true} {
		s.fail("rollback_changes", map[string]any{"changeId": id, "force": force}, "PATH_DENIED")
	}
	if got := disk(t, root, "later.txt"); got != "two\n" {
		t.Errorf("later.txt was rolled back: %q", got)
	}

	// Made writable again, it changes as any file.
	os.Chmod(filepath.Join(root, "locked_test.go"), 0o644)
	s.ok("edit_file", map[string]any{"path": "locked_test.go", "oldString": "1 == 1", "newString": "true"})
	s.ok("edit_file", map[string]any{"path": "other/free2.txt", "oldString": "free", "newString": "still free"})
}
