package test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A repository with no commits yet: git_status says so, as git status
// does, and git_diff against HEAD says the branch has no commits yet
// rather than passing on git's "bad revision 'HEAD'".
func TestGitNoCommitsYetSaysSo(t *testing.T) {
	root := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", "-b", "main", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := start(t, root)
	if res := s.call("git_status", map[string]any{}); res.IsError || !strings.Contains(text(res), "branch main, no commits yet") {
		t.Errorf("git_status:\n%s", text(res))
	}
	msg := s.fail("git_diff", map[string]any{"revision": "HEAD"}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "no commits yet") || strings.Contains(msg, "bad revision") || !strings.Contains(msg, "staged: true") {
		t.Errorf("git_diff HEAD: %s", msg)
	}
}
