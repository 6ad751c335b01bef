package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinkedKeyIsNoEditToolsPreImage holds the edit tools to SECURITY.md,
// "Secrets", Hard links: a multiply-linked file whose head holds a PEM
// private key block is SECRET_DENIED. read_file refused it, yet every
// change read it as its pre-image and answered with its diff: edit_file
// and write_file showed the key's lines as removed, delete_path all of
// them, apply_patch quoted its first line in its conflict, preview_changes
// counted its lines, and a rollback of the change would have put the key
// back as a file of one link, which read_file then reads. Each tool is now
// refused before it reads, nothing is changed, and no byte of the key is
// in any answer.
func TestLinkedKeyIsNoEditToolsPreImage(t *testing.T) {
	const key = "-----BEGIN OPENSSH PRIVATE KEY-----\nKEYLINE-ONE-7f3a\nKEYLINE-TWO-9c1e\n-----END OPENSSH PRIVATE KEY-----\n"
	root := workspace(t, map[string]string{"ok.txt": "fine\n"})
	outside := t.TempDir()
	out := filepath.Join(outside, "id_ed25519")
	if err := os.WriteFile(out, []byte(key), 0o600); err != nil {
		t.Fatal(err)
	}
	names := []string{"edited.txt", "written.txt", "deleted.txt", "moved.txt", "onto.txt", "patched.txt", "planned.txt", "dir/inner.txt"}
	if err := os.MkdirAll(filepath.Join(root, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if err := os.Link(out, filepath.Join(root, n)); err != nil {
			t.Skipf("cannot hard-link into the workspace: %v", err)
		}
	}
	s := start(t, root, "--mode", "trusted")
	s.fail("read_file", map[string]any{"path": "edited.txt"}, "SECRET_DENIED")

	cases := []struct {
		name string
		tool string
		args map[string]any
	}{
		{"edit", "edit_file", map[string]any{"path": "edited.txt", "oldString": "KEYLINE-ONE-7f3a", "newString": "x"}},
		{"edit no match", "edit_file", map[string]any{"path": "edited.txt", "oldString": "KEYLINE-ONE-7f3b", "newString": "x"}},
		{"write", "write_file", map[string]any{"path": "written.txt", "content": "hi\n"}},
		{"delete", "delete_path", map[string]any{"path": "deleted.txt"}},
		{"move", "move_path", map[string]any{"path": "moved.txt", "destination": "elsewhere.txt"}},
		{"move onto", "move_path", map[string]any{"path": "ok.txt", "destination": "onto.txt", "overwrite": true}},
		{"delete folder", "delete_path", map[string]any{"path": "dir", "recursive": true}},
		{"patch", "apply_patch", map[string]any{"patch": "--- a/patched.txt\n+++ b/patched.txt\n@@ -1,2 +1,2 @@\n zzz\n-qqq\n+PATCHED\n"}},
		{"patch delete", "apply_patch", map[string]any{"patch": "--- a/patched.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"}},
		{"plan", "preview_changes", map[string]any{"operations": []any{map[string]any{"op": "edit", "path": "planned.txt", "oldString": "KEYLINE", "newString": "y", "replaceAll": true}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := s.call(c.tool, c.args)
			all := text(res)
			if b, err := json.Marshal(res.StructuredContent); err == nil {
				all += string(b)
			}
			all += string(res.RawStructuredContent)
			for _, leak := range []string{"KEYLINE", "PRIVATE KEY", "sha256Before", "(+"} {
				if strings.Contains(all, leak) {
					t.Errorf("%s answered with %q of the linked key: %s", c.tool, leak, all)
				}
			}
			if !res.IsError {
				t.Fatalf("%s changed a hard-linked key: %s", c.tool, all)
			}
			if got := structured(t, res)["code"]; got != "SECRET_DENIED" {
				t.Errorf("%s: code %v, want SECRET_DENIED: %s", c.tool, got, all)
			}
		})
	}
	for _, n := range names {
		if got := disk(t, root, n); got != key {
			t.Errorf("%s changed on disk: %q", n, got)
		}
	}
	if _, n := claimInode(t, out); n != uint64(len(names)+1) {
		t.Errorf("the key has %d links after the calls, want %d", n, len(names)+1)
	}
	if got := s.ok("change_history", map[string]any{}); strings.Contains(got, "c0000") {
		t.Errorf("a change was recorded: %s", got)
	}
}
