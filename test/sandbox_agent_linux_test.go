package test

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The owner's ssh agent, its socket outside /tmp and the session's
// runtime folder (1Password's ~/.1password/agent.sock, an ssh-agent -a
// ~/.ssh/agent.sock), is no socket a confined command can connect to:
// through it a command listed the owner's keys, signed with them and
// removed them from the agent, with the network denied. Commands never get
// SSH_AUTH_SOCK, but such a path is well known, or in ~/.ssh/config.
func TestSandboxReachesNoSSHAgent(t *testing.T) {
	needSandbox(t)
	home := outside(t)
	sock := filepath.Join(home, ".1password", "agent.sock")
	if err := os.Mkdir(filepath.Dir(sock), 0o700); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { ln.Close() })
	// Under the cover the path is /dev/null's device, which no one can
	// connect to.
	t.Setenv("SSH_AUTH_SOCK", sock)
	root := workspace(t, map[string]string{"src/a.go": "package a\n"})
	s := start(t, root, "--mode", "trusted", "--sandbox", "require")
	script := "test -S " + sock + " && echo socket; test -e " + sock + " && echo present; echo done"
	for _, network := range []bool{false, false, true} {
		m := structured(t, s.call("run_command", map[string]any{"network": network, "command": script}))
		got, _ := m["stdout"].(string)
		if mech, _ := m["sandbox"].(string); !strings.HasPrefix(mech, "bubblewrap") || !strings.Contains(got, "done") {
			t.Fatalf("the command did not run confined: sandbox %q (%q)", mech, got)
		}
		if strings.Contains(got, "socket") || !strings.Contains(got, "present") {
			t.Fatalf("a confined command (network %v) finds the ssh agent's socket as it is, or not at all: %q", network, got)
		}
	}
}
