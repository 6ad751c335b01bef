package test

import (
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/sandboxtest"
)

// TestSandboxGitGuarded: sandboxed run_commands in a real repository (the
// first root) and a linked worktree of it (the second) try to replace
// .git or rewrite what configures or redirects git. Each fails, and
// afterwards the host's .git of each root is as it was: the same folder
// (or file), the same hooks, configuration and redirections.
func TestSandboxGitGuarded(t *testing.T) {
	needSandbox(t)
	main, wt := sandboxtest.GitWorkspace(t)
	s := start(t, main, "--root", wt, "--mode", "trusted", "--sandbox", "require")
	cwd := map[string]string{"main": ".", "wt": wt}
	before := map[string]map[string]string{main: sandboxtest.GitSnapshot(t, main), wt: sandboxtest.GitSnapshot(t, wt)}
	// The sandbox runs commands in both roots: the attacks fail for what
	// they attempt, not because nothing runs.
	for _, dir := range cwd {
		m := structured(t, s.call("run_command", map[string]any{"command": "echo ok > sandboxed.txt && cat sandboxed.txt", "cwd": dir}))
		if exitCode(t, m) != 0 || m["stdout"] != "ok\n" {
			t.Fatalf("a plain command in %s: %v", dir, m)
		}
	}
	for _, a := range sandboxtest.GitAttacks {
		m := structured(t, s.call("run_command", map[string]any{"command": a.Script, "cwd": cwd[a.Dir]}))
		if code := exitCode(t, m); code == 0 || !strings.HasPrefix(m["sandbox"].(string), "bubblewrap") {
			t.Errorf("%s (%s): exit %d in sandbox %v: %v", a.Name, a.Script, code, m["sandbox"], m["stderr"])
		}
		for root, snap := range before {
			sandboxtest.SameGit(t, root, snap)
		}
		if t.Failed() {
			t.Fatalf("after %q", a.Name)
		}
	}
	// What the sandbox cannot stop: creating a redirection that did not
	// exist (bubblewrap binds only what is there). juju's own git must not
	// honour it (hostfns/git); see SECURITY.md.
	m := structured(t, s.call("run_command", map[string]any{"command": "echo /tmp/evil > .git/commondir && echo created"}))
	t.Logf("creating a missing .git/commondir in the sandbox: exit %d, %v", exitCode(t, m), m["stdout"])
}

// TestSandboxGitWorks: git add, commit and checkout -b in a sandboxed
// run_command still work, and the host sees their result.
func TestSandboxGitWorks(t *testing.T) {
	needSandbox(t)
	main, _ := sandboxtest.GitWorkspace(t)
	s := start(t, main, "--mode", "trusted", "--sandbox", "require")
	script := `echo b > b.txt && git add b.txt && git commit -q -m "from the sandbox" && git checkout -q -b topic && git log --format=%s`
	m := structured(t, s.call("run_command", map[string]any{"command": script}))
	if exitCode(t, m) != 0 || !strings.HasPrefix(m["sandbox"].(string), "bubblewrap") {
		t.Fatalf("git in the sandbox: %v", m)
	}
	if got := sandboxtest.Git(t, main, "log", "--format=%s", "topic"); got != "from the sandbox\nfirst\n" {
		t.Errorf("log of topic on the host:\n%s", got)
	}
	if got := strings.TrimSpace(sandboxtest.Git(t, main, "branch", "--show-current")); got != "topic" {
		t.Errorf("current branch %q", got)
	}
}
