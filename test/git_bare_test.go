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
	// Its files are git's (HEAD, config, the hooks' samples), none of a
	// project's: the overview, of the root or of a folder in it, counts none.
	for _, path := range []string{".", "hooks"} {
		res := s.call("project_overview", map[string]any{"path": path})
		if sc := structured(t, res); res.IsError || sc["files"] != float64(0) || sc["bytes"] != float64(0) {
			t.Errorf("project_overview of %s counts git's files as the project's:\n%s", path, text(res))
		}
	}
}
