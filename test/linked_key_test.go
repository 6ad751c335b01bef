//go:build unix

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

// TestLinkedKeyIsNoGitContent holds the git tools to the same rule. git
// reads the work tree itself, not through the policy: git_diff printed a
// tracked file that is a hard link to a private key as the key's lines,
// and git_commit staged and committed one named in paths or changed under
// all, after which every git_diff of that commit printed it. git_diff now
// leaves such a file out, and git_commit leaves it out as a withheld path.
func TestLinkedKeyIsNoGitContent(t *testing.T) {
	const key = "-----BEGIN OPENSSH PRIVATE KEY-----\nKEYLINE-ONE-7f3a\n-----END OPENSSH PRIVATE KEY-----\n"
	root := gitRepo(t)
	out := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(out, []byte(key), 0o600); err != nil {
		t.Fatal(err)
	}
	// README.md is tracked; untracked.txt and changed.txt are not yet.
	for _, n := range []string{"README.md", "untracked.txt", "sub/changed.txt"} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, n)), 0o755)
		os.Remove(filepath.Join(root, n))
		if err := os.Link(out, filepath.Join(root, n)); err != nil {
			t.Skipf("cannot hard-link into the workspace: %v", err)
		}
	}
	s := startExec(t, root)
	s.fail("read_file", map[string]any{"path": "README.md"}, "SECRET_DENIED")
	noKey := func(tool string, args map[string]any) string {
		t.Helper()
		res := s.call(tool, args)
		all := text(res) + string(res.RawStructuredContent)
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			all += string(b)
		}
		if strings.Contains(all, "KEYLINE") || strings.Contains(all, "PRIVATE KEY") {
			t.Errorf("%s %v shows the linked key: %s", tool, args, all)
		}
		return all
	}
	for _, args := range []map[string]any{{}, {"revision": "HEAD"}, {"revision": "HEAD~1"}, {"paths": []any{"README.md"}}, {"contextLines": 0}} {
		if got := noKey("git_diff", args); !strings.Contains(got, "main.go") && args["paths"] == nil {
			t.Errorf("git_diff %v left out the visible change too: %s", args, got)
		}
	}
	got := noKey("git_commit", map[string]any{"message": "named", "paths": []any{"untracked.txt", "main.go"}})
	if !strings.Contains(got, "untracked.txt") || !strings.Contains(got, "skipped") {
		t.Errorf("git_commit does not say it left the linked key out: %s", got)
	}
	noKey("git_commit", map[string]any{"message": "all", "all": true})
	if files := gitOut(t, root, "log", "--name-only", "--format=", "-2"); strings.Contains(files, "untracked.txt") || strings.Contains(files, "changed.txt") || strings.Contains(files, "README.md") {
		t.Errorf("a linked key was committed: %q", files)
	}
	for _, args := range []map[string]any{{"revision": "HEAD~2"}, {"staged": true}} {
		noKey("git_diff", args)
	}
}
