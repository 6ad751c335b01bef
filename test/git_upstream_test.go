package test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestGitUpstreamGone: a branch whose upstream was deleted on the remote
// and pruned is not "ahead 0, behind 0" of a branch that no longer
// exists: git_status and project_overview say the upstream is gone, as
// git status does ("the upstream is gone").
func TestGitUpstreamGone(t *testing.T) {
	origin, root := workspace(t, map[string]string{"a.txt": "a\n"}), t.TempDir()
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=o", "GIT_AUTHOR_EMAIL=o@example.com", "GIT_COMMITTER_NAME=o", "GIT_COMMITTER_EMAIL=o@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(origin, "init", "-q", "-b", "main")
	git(origin, "add", ".")
	git(origin, "commit", "-q", "-m", "one")
	git(origin, "branch", "feat")
	git(root, "clone", "-q", origin, ".")
	git(root, "checkout", "-q", "feat")
	git(origin, "branch", "-q", "-D", "feat")
	git(root, "fetch", "-q", "--prune")

	s := startExec(t, root)
	res := s.call("git_status", map[string]any{})
	st := structured(t, res)
	if st["upstream"] != "origin/feat" || st["upstreamGone"] != true {
		t.Errorf("git_status structured: %v", st)
	}
	if got := text(res); !strings.HasPrefix(got, "branch feat → origin/feat (gone: deleted on the remote)\n") {
		t.Errorf("git_status text:\n%s", got)
	}
	res = s.call("project_overview", map[string]any{})
	g := structured(t, res)["git"].(map[string]any)
	if g["upstream"] != "origin/feat" || g["upstreamGone"] != true {
		t.Errorf("project_overview git: %v", g)
	}
	if got := text(res); !strings.Contains(got, "Git: branch feat (tracking origin/feat, gone: deleted on the remote)") {
		t.Errorf("project_overview text:\n%s", got)
	}
}
