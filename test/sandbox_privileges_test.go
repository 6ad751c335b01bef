package test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/sandboxtest"
	"github.com/jujutools/juju/sandbox"
)

// exitCode reads a command result's exit code (-1 when it has none).
func exitCode(t *testing.T, m map[string]any) int {
	t.Helper()
	if c, ok := m["exitCode"].(float64); ok {
		return int(c)
	}
	return -1
}

// TestSandboxPrivileges: a sandboxed command of juju run as root has no
// capability in any set, no_new_privs, namespaces of its own, and can
// neither rename the machine nor set its clock.
func TestSandboxPrivileges(t *testing.T) {
	needSandbox(t)
	k, v, _ := strings.Cut(sandboxtest.HostUTS(), "=")
	t.Setenv(k, v)
	hostname, _ := os.Hostname()
	s := start(t, workspace(t, nil), "--mode", "trusted", "--sandbox", "require")
	m := structured(t, s.call("run_command", map[string]any{"command": sandboxtest.PrivilegeProbe}))
	out, _ := m["stdout"].(string)
	t.Logf("uid %d, sandbox %v:\n%s", os.Geteuid(), m["sandbox"], out)
	if exitCode(t, m) != 0 {
		t.Fatalf("probe: %v", m)
	}
	sandboxtest.CheckPrivileges(t, out, sandbox.DetectBubblewrap(context.Background()).UserNS)
	if after, _ := os.Hostname(); after != hostname {
		t.Errorf("the host's name changed from %q to %q", hostname, after)
	}
}

// TestSandboxPrivilegesUnprivileged is TestSandboxPrivileges with juju run
// by an ordinary user (nobody, through setpriv): from a copy of juju that
// user can run, with its own home and a copy of the compiled plugins. It
// runs as root (as CI does) and skips, saying why, where an ordinary user
// cannot run bubblewrap.
func TestSandboxPrivilegesUnprivileged(t *testing.T) {
	needSandbox(t)
	u := asNobody(t)
	root := u.dir("root")
	outside := u.dir("outside")
	k, v, _ := strings.Cut(sandboxtest.HostUTS(), "=")
	s := startCommand(t, append(u.env, k+"="+v), u.setpriv, append(u.prefix, u.juju, "stdio", "--root", root, "--mode", "trusted", "--sandbox", "require"), u.home, root)
	m := structured(t, s.call("run_command", map[string]any{"command": sandboxtest.PrivilegeProbe + "\nid -u\necho x > " + outside + "/escaped || echo refused-outside"}))
	out, _ := m["stdout"].(string)
	t.Logf("sandbox %v:\n%s", m["sandbox"], out)
	if exitCode(t, m) != 0 || !strings.Contains(out, "\n65534\n") || !strings.Contains(out, "refused-outside") {
		t.Fatalf("probe as nobody: %v", m)
	}
	sandboxtest.CheckPrivileges(t, out, u.userNS)
	if _, err := os.Stat(filepath.Join(outside, "escaped")); err == nil {
		t.Error("the command wrote outside the root")
	}
}
