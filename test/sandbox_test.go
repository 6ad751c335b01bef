package test

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sandbox"
)

func needSandbox(t *testing.T) {
	t.Helper()
	if a := sandbox.DetectBubblewrap(context.Background()); !a.Available {
		t.Skipf("no working bubblewrap (make test installs it): %s", a.Reason)
	}
}

// outside is a folder outside the workspace and outside /tmp (a private
// tmpfs inside the sandbox, where a write would vanish rather than fail).
func outside(t *testing.T) string {
	d, err := os.MkdirTemp("/var/tmp", "juju-e2e-outside-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func TestSandboxConfinesWrites(t *testing.T) {
	needSandbox(t)
	root := workspace(t, map[string]string{".git/hooks/pre-commit.sample": "#!/bin/sh\n", "src/a.go": "package a\n"})
	out := outside(t)
	s := start(t, root, "--mode", "trusted", "--sandbox", "require")
	script := `echo in > src/new.txt && echo wrote-inside
echo out > ` + out + `/escaped 2>/dev/null || echo refused-outside
echo evil > .git/hooks/pre-commit 2>/dev/null || echo refused-hook
echo tmp > /tmp/juju-e2e-private && echo tmp-private`
	m := structured(t, s.call("run_command", map[string]any{"command": script}))
	stdout, _ := m["stdout"].(string)
	t.Logf("sandbox %v:\n%s", m["sandbox"], stdout)
	if mech := m["sandbox"].(string); !strings.HasPrefix(mech, "bubblewrap") {
		t.Errorf("sandbox = %q", mech)
	}
	for _, want := range []string{"wrote-inside", "refused-outside", "refused-hook", "tmp-private"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("missing %q in %q", want, stdout)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "src/new.txt")); string(b) != "in\n" {
		t.Errorf("inside write: %q", b)
	}
	for _, p := range []string{filepath.Join(out, "escaped"), filepath.Join(root, ".git/hooks/pre-commit"), "/tmp/juju-e2e-private"} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s exists after the sandboxed run", p)
		}
	}
	// exec_command and run_commands are confined the same way.
	m = structured(t, s.call("exec_command", map[string]any{"program": "touch", "args": []any{out + "/x"}}))
	if m["exitCode"].(float64) == 0 {
		t.Errorf("exec_command wrote outside: %v", m)
	}
}

// loopback listens on the host's loopback and counts the connections it
// accepts; connect is a bash command that connects to it and says
// whether it could.
func loopback(t *testing.T) (connect string, accepted chan struct{}) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	accepted = make(chan struct{}, 8)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Close()
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	return "exec 3<>/dev/tcp/127.0.0.1/" + port + " && echo connected || echo refused", accepted
}

func TestSandboxNetwork(t *testing.T) {
	needSandbox(t)
	connect, accepted := loopback(t)
	s := start(t, workspace(t, nil), "--mode", "trusted", "--sandbox", "off")

	// sandbox: true per call, network denied by default.
	m := structured(t, s.call("run_command", map[string]any{"command": connect, "sandbox": true}))
	if !strings.Contains(m["stdout"].(string), "refused") || !strings.HasPrefix(m["sandbox"].(string), "bubblewrap") {
		t.Errorf("denied: %v", m)
	}
	select {
	case <-accepted:
		t.Error("a connection arrived from a sandbox without network")
	case <-time.After(200 * time.Millisecond):
	}
	m = structured(t, s.call("run_command", map[string]any{"command": connect, "sandbox": true, "network": true}))
	if !strings.Contains(m["stdout"].(string), "connected") {
		t.Errorf("allowed: %v", m)
	}
	// Unconfined (the setting is off and the call does not ask).
	m = structured(t, s.call("run_command", map[string]any{"command": connect}))
	if !strings.Contains(m["stdout"].(string), "connected") || m["sandbox"] != "none" {
		t.Errorf("unconfined: %v", m)
	}
}

// pathWithout makes a PATH folder holding only the named programs, so
// juju runs on a machine without bubblewrap. This is how the tests
// simulate an unusable sandbox: a real absence, not a switch.
func pathWithout(t *testing.T, keep ...string) string {
	dir := t.TempDir()
	for _, name := range keep {
		p, err := exec.LookPath(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(p, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestSandboxRequireFailsClosed(t *testing.T) {
	root := workspace(t, nil)
	t.Setenv("PATH", pathWithout(t, "bash"))
	s := start(t, root, "--mode", "trusted", "--sandbox", "require")
	msg := s.fail("run_command", map[string]any{"command": "echo ran > marker"}, "SANDBOX_UNAVAILABLE")
	if !strings.Contains(msg, "sandbox = require") || !strings.Contains(msg, "bwrap is not on PATH") {
		t.Errorf("message: %s", msg)
	}
	s.fail("exec_command", map[string]any{"program": "bash", "args": []any{"-c", "echo ran > marker"}}, "SANDBOX_UNAVAILABLE")
	// No command of the call can start, for the one reason they share: the
	// call fails with it.
	s.fail("run_commands", map[string]any{"commands": []any{"echo ran > marker", "echo ran too > marker"}}, "SANDBOX_UNAVAILABLE")
	if _, err := os.Stat(filepath.Join(root, "marker")); err == nil {
		t.Error("a command ran without the required sandbox")
	}
}

func TestSandboxPreferSaysUnconfined(t *testing.T) {
	root := workspace(t, nil)
	t.Setenv("PATH", pathWithout(t, "bash"))
	s := start(t, root, "--mode", "trusted", "--sandbox", "prefer")
	m := structured(t, s.call("run_command", map[string]any{"command": "echo ran"}))
	if m["stdout"] != "ran\n" || m["sandbox"] != "none" || !strings.Contains(m["note"].(string), "ran unconfined") {
		t.Errorf("prefer: %v", m)
	}
	// Asking for the sandbox in the call fails closed even under prefer.
	s.fail("run_command", map[string]any{"command": "echo ran > marker", "sandbox": true}, "SANDBOX_UNAVAILABLE")
	if _, err := os.Stat(filepath.Join(root, "marker")); err == nil {
		t.Error("ran unconfined although the call asked for the sandbox")
	}
}

// sleepers lists the live processes running `sleep <marker>`.
func sleepers(marker string) []string {
	var found []string
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err != nil || string(b) != "sleep\x00"+marker+"\x00" {
			continue
		}
		if alive(atoi(d.Name())) {
			found = append(found, d.Name())
		}
	}
	return found
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// TestSandboxCancelKillsEverything: cancelling a sandboxed job ends every
// process it started, inside bubblewrap's own session and PID namespace.
func TestSandboxCancelKillsEverything(t *testing.T) {
	needSandbox(t)
	marker := strconv.Itoa(3000 + int(time.Now().UnixNano()%1000))
	s := start(t, workspace(t, nil), "--mode", "trusted", "--sandbox", "require")
	m := structured(t, s.call("run_command", map[string]any{"command": "sleep " + marker + " & sleep " + marker + " & wait", "background": true}))
	var found []string
	for deadline := time.Now().Add(5 * time.Second); len(found) < 2 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		found = sleepers(marker)
	}
	if len(found) != 2 {
		t.Fatalf("sleepers before the cancel: %v (%v)", found, m)
	}
	if m = structured(t, s.call("cancel_job", map[string]any{"jobId": m["jobId"]})); m["state"] != "killed" {
		t.Errorf("cancel: %v", m)
	}
	for deadline := time.Now().Add(3 * time.Second); len(sleepers(marker)) > 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("sandboxed processes outlived the cancel: %v", sleepers(marker))
		}
	}
}

// The sandbox helper runs as juju-sandbox when it lies beside juju (as make
// build and these tests put it) and as `juju __sandbox` when juju is alone:
// both confine alike. juju doctor says which.
func TestSandboxHelperBesideJujuOrNot(t *testing.T) {
	needSandbox(t)
	alone := filepath.Join(t.TempDir(), "juju")
	b, err := os.ReadFile(jujuBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, b, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		bin, helper string
	}{
		{jujuBin, filepath.Join(filepath.Dir(jujuBin), sandbox.HelperProgram)},
		{alone, alone + " " + sandbox.HelperCommand},
	} {
		home := t.TempDir()
		cmd := exec.Command(c.bin, "doctor", "--json")
		cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
		out, _ := cmd.Output()
		var doc struct{ SandboxHelper string }
		if json.Unmarshal(out, &doc) != nil || doc.SandboxHelper != c.helper {
			t.Errorf("%s: doctor does not name the helper %q:\n%s", c.bin, c.helper, out)
		}
		root := workspace(t, map[string]string{"a.txt": "a\n"})
		out2 := outside(t)
		os.Symlink(sharedCache, filepath.Join(home, "cache"))
		s := startCommand(t, append(os.Environ(), "JUJU_HOME="+home), c.bin, []string{"stdio", "--root", root, "--mode", "trusted", "--sandbox", "require"}, home, root)
		m := structured(t, s.call("run_command", map[string]any{"command": "echo in > b.txt && echo ok; echo out > " + out2 + "/x 2>/dev/null || echo refused"}))
		if stdout, _ := m["stdout"].(string); m["sandbox"] != sandbox.MechBubblewrapLandlock && m["sandbox"] != sandbox.MechBubblewrap ||
			!strings.Contains(stdout, "ok") || !strings.Contains(stdout, "refused") {
			t.Errorf("%s: %v", c.bin, m)
		}
		if _, err := os.Stat(filepath.Join(out2, "x")); err == nil {
			t.Errorf("%s: the sandbox let a write outside through", c.bin)
		}
	}
}

// TestGitCommitRequireFailsClosed holds git_commit to "require refuses
// without a sandbox" (SECURITY.md, git): a commit runs the repository's
// hooks and filters, so where no sandbox can be built it is refused, and
// nothing is staged or committed.
func TestGitCommitRequireFailsClosed(t *testing.T) {
	root := gitRepo(t) // main.go changed, new.go staged, a pre-commit hook
	head := gitOut(t, root, "rev-parse", "HEAD")
	staged := gitOut(t, root, "diff", "--cached", "--name-only")
	t.Setenv("PATH", pathWithout(t, "bash", "git"))
	s := start(t, root, "--mode", "trusted", "--sandbox", "require")
	msg := s.fail("git_commit", map[string]any{"message": "two", "paths": []any{"main.go"}}, "SANDBOX_UNAVAILABLE")
	if !strings.Contains(msg, "sandbox") {
		t.Errorf("message: %s", msg)
	}
	if now := gitOut(t, root, "rev-parse", "HEAD"); now != head {
		t.Errorf("HEAD moved from %s to %s without the required sandbox", head, now)
	}
	if now := gitOut(t, root, "diff", "--cached", "--name-only"); now != staged {
		t.Errorf("the index changed without the required sandbox: %q, was %q", now, staged)
	}
	if _, err := os.Stat(filepath.Join(root, ".git/hook-mark")); err == nil {
		t.Error("the pre-commit hook ran without the required sandbox")
	}
}

// A work tree whose git folder lies elsewhere in the root (git init
// --separate-git-dir, or a .git link) keeps that folder's configuration
// and hooks read-only in the sandbox, and the folder in place, as a .git
// folder's are: a confined command wrote its config and a pre-commit
// hook there, which the owner's git then ran. Commits inside still work.
func TestSandboxGuardsASeparateGitFolder(t *testing.T) {
	needSandbox(t)
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "--separate-git-dir=gitstore")
	s := start(t, root, "--mode", "trusted", "--sandbox", "require")
	script := `echo '[core] fsmonitor = ./x' >> gitstore/config 2>/dev/null || echo refused-config
printf '#!/bin/sh\ntouch HOOK_RAN\n' > gitstore/hooks/pre-commit 2>/dev/null || echo refused-hook
mv gitstore gitstore2 2>/dev/null || echo refused-move
git -c user.name=t -c user.email=t@t add a.txt && git -c user.name=t -c user.email=t@t commit -qm one && echo committed`
	m := structured(t, s.call("run_command", map[string]any{"command": script}))
	stdout, _ := m["stdout"].(string)
	if mech, _ := m["sandbox"].(string); !strings.HasPrefix(mech, "bubblewrap") {
		t.Fatalf("sandbox = %q", mech)
	}
	for _, want := range []string{"refused-config", "refused-hook", "refused-move", "committed"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("missing %q in %q (stderr %q)", want, stdout, m["stderr"])
		}
	}
	if b, _ := os.ReadFile(filepath.Join(root, "gitstore", "config")); strings.Contains(string(b), "fsmonitor") {
		t.Errorf("the git folder's config was written:\n%s", b)
	}
	if _, err := os.Lstat(filepath.Join(root, "gitstore", "hooks", "pre-commit")); err == nil {
		t.Error("a hook was planted in the git folder")
	}
}
