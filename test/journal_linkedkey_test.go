package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChangesRefuseAHardLinkedKey holds juju to SECURITY.md, "Hard links":
// a multiply-linked file whose head holds a PEM private key block is
// SECRET_DENIED wherever it is linked. read_file refused it, but the
// journal read it as a pre-image with no such check: edit_file showed its
// lines in the diff and in NO_MATCH's closest line, delete_path in its
// diff, and an edit or a move left a copy of one link that read_file then
// read whole. Every write tool must refuse it and show nothing of it.
func TestChangesRefuseAHardLinkedKey(t *testing.T) {
	const body = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"
	const key = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + body + "\n-----END OPENSSH PRIVATE KEY-----\n"
	root := workspace(t, map[string]string{"keep.txt": "x\n"})
	outside := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(outside, []byte(key), 0o600); err != nil {
		t.Fatal(err)
	}
	names := []string{"notes.txt", "dir/inner.txt"}
	for _, n := range names {
		os.MkdirAll(filepath.Dir(filepath.Join(root, n)), 0o755)
		if err := os.Link(outside, filepath.Join(root, n)); err != nil {
			t.Skipf("cannot hard-link into the workspace: %v", err)
		}
	}
	s := start(t, root, "--mode", "trusted")
	cases := []struct {
		tool string
		args map[string]any
	}{
		{"edit_file", map[string]any{"path": "notes.txt", "oldString": "-----END OPENSSH", "newString": "X-----END OPENSSH"}},
		{"edit_file", map[string]any{"path": "notes.txt", "oldString": body + "x", "newString": "y"}},
		{"write_file", map[string]any{"path": "notes.txt", "content": "new\n"}},
		{"apply_patch", map[string]any{"patch": "--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1 @@\n-x\n+y\n"}},
		{"delete_path", map[string]any{"path": "notes.txt"}},
		{"move_path", map[string]any{"path": "notes.txt", "destination": "moved.txt"}},
		{"delete_path", map[string]any{"path": "dir", "recursive": true}},
		{"move_path", map[string]any{"path": "dir", "destination": "dir2"}},
		{"preview_changes", map[string]any{"operations": []any{map[string]any{"op": "delete", "path": "notes.txt"}}}},
	}
	for _, c := range cases {
		res := s.call(c.tool, c.args)
		got := text(res)
		if !res.IsError || structured(t, res)["code"] != "SECRET_DENIED" {
			t.Errorf("%s(%v) was not refused as a secret: %s", c.tool, c.args, got)
		}
		if strings.Contains(got, "PRIVATE KEY") || strings.Contains(got, body[:20]) {
			t.Errorf("%s(%v) showed the key: %s", c.tool, c.args, got)
		}
	}
	for _, n := range names {
		if got := disk(t, root, n); got != key {
			t.Errorf("%s now holds %q", n, got)
		}
		s.fail("read_file", map[string]any{"path": n}, "SECRET_DENIED")
	}
	for _, n := range []string{"moved.txt", "dir2"} {
		if _, err := os.Lstat(filepath.Join(root, n)); err == nil {
			t.Errorf("%s was made from the key", n)
		}
	}
	if h := s.ok("change_history", map[string]any{}); strings.Contains(h, "notes.txt") || strings.Contains(h, "inner.txt") {
		t.Errorf("a change of the key was recorded: %s", h)
	}
}
