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
	sock := filepath.Join(outside(t), ".1password", "agent.sock")
	t.Setenv("SSH_AUTH_SOCK", sock)
	checkAgentCovered(t, sock)
}

// Nor is gpg-agent's socket in gpg's home folder, where gpg puts it on a
// system without a session runtime folder: through it, once the owner had
// used the key, a confined command decrypted the owner's files.
func TestSandboxReachesNoGPGAgent(t *testing.T) {
	needSandbox(t)
	gnupg := filepath.Join(outside(t), ".gnupg")
	t.Setenv("GNUPGHOME", gnupg)
	checkAgentCovered(t, filepath.Join(gnupg, "S.gpg-agent"))
}

// checkAgentCovered listens on sock, an agent's, and checks that confined
// commands find /dev/null's device there, whose node no one can connect
// to, with the network denied and allowed.
func checkAgentCovered(t *testing.T, sock string) {
	t.Helper()
	if err := os.Mkdir(filepath.Dir(sock), 0o700); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { ln.Close() })
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
			t.Fatalf("a confined command (network %v) finds the agent's socket as it is, or not at all: %q", network, got)
		}
	}
}
