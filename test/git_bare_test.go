package test

import (
	"os/exec"
	"strings"
	"testing"
)

// A bare repository as the root: the git tools refuse it (no work tree to
// read, and git is pinned to safe.bareRepository=explicit), and they and
// project_overview say it is a bare repository and what to do, not that
// there is no repository at all.
func TestGitBareRootSaysBare(t *testing.T) {
	root := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", "--bare", root).CombinedOutput(); err != nil {
		t.Fatalf("git init --bare: %v\n%s", err, out)
	}
	s := start(t, root)
	for _, tool := range []string{"git_status", "git_log"} {
		msg := s.fail(tool, map[string]any{}, "NOT_FOUND")
		if !strings.Contains(msg, "bare repository") || !strings.Contains(msg, "clone") {
			t.Errorf("%s: %s", tool, msg)
		}
	}
	res := s.call("project_overview", map[string]any{})
	if res.IsError || !strings.Contains(text(res), "bare repository") {
		t.Errorf("project_overview:\n%s", text(res))
	}
}
