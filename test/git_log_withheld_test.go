package test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// git_log in a repository whose only commits touch only secrets does not
// say there are no commits: it says the commits it does not show touch
// only paths juju withholds.
func TestGitLogSaysCommitsOfWithheldPathsAreHidden(t *testing.T) {
	root := workspace(t, map[string]string{".env": "TOKEN=x\n", "id_rsa": "key\n"})
	for _, args := range [][]string{{"init", "-q"}, {"add", "-f", ".env", "id_rsa"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "s"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	s := start(t, root)
	res := s.call("git_log", map[string]any{})
	if res.IsError {
		t.Fatal(text(res))
	}
	txt := text(res)
	if strings.TrimSpace(txt) == "no commits" || !strings.Contains(txt, "withholds") {
		t.Errorf("git_log:\n%s", txt)
	}
	if strings.Contains(txt, "TOKEN") {
		t.Errorf("git_log shows a secret:\n%s", txt)
	}
}
