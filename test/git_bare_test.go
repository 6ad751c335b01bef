package test

import (
	"os/exec"
	"path/filepath"
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

// A bare repository as the root keeps its config (a remote's URL with its
// password) and the content it stores secret, as a bare clone's inside a
// root (mirror.git/config) is: the secret globs name the clone's folder,
// which a root has not.
func TestGitBareRootKeepsItsConfigSecret(t *testing.T) {
	root := filepath.Join(t.TempDir(), "proj.git")
	for _, args := range [][]string{{"init", "-q", "--bare", root}, {"-C", root, "remote", "add", "origin", "https://user:BARETOKEN@example.com/x"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	// A reflog (core.logAllRefUpdates) with a fetch's command line.
	write(t, root, "logs/HEAD", "0 1 O <o@e> 1 +0000\tfetch https://user:BARETOKEN@example.com/x\n")
	for _, engine := range []string{"ripgrep", "juju"} {
		t.Run(engine, func(t *testing.T) {
			if engine == "juju" {
				withoutRipgrep(t)
			}
			s := start(t, root, "--mode", "trusted")
			s.fail("read_file", map[string]any{"path": "config"}, "SECRET_DENIED")
			s.fail("read_file", map[string]any{"path": "CONFIG"}, "SECRET_DENIED")
			s.fail("read_file", map[string]any{"path": "logs/HEAD"}, "SECRET_DENIED")
			if res := s.call("search_code", map[string]any{"pattern": "BARETOKEN"}); strings.Contains(text(res), "example.com") {
				t.Errorf("search_code shows the bare root's config:\n%s", text(res))
			}
			if got := s.ok("glob_files", map[string]any{"pattern": "**"}); strings.Contains(got, "config") || strings.Contains(got, "logs") || !strings.Contains(got, "HEAD") {
				t.Errorf("glob_files:\n%s", got)
			}
		})
	}
}
