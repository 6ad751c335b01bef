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

// Nor are gpg-agent's and dirmngr's sockets in gpg's home folder, where
// gpg puts them on a system without a session runtime folder: through
// the agent, once the owner had used the key, a confined command
// decrypted the owner's files, and through dirmngr it had a URL of its
// choosing fetched on the host's network with its own denied.
func TestSandboxReachesNoGPGAgent(t *testing.T) {
	needSandbox(t)
	gnupg := filepath.Join(outside(t), ".gnupg")
	t.Setenv("GNUPGHOME", gnupg)
	checkAgentCovered(t, filepath.Join(gnupg, "S.gpg-agent"), filepath.Join(gnupg, "S.dirmngr"))
}

// checkAgentCovered listens on socks, an agent's, and checks that
// confined commands find /dev/null's device at each, whose node no one
// can connect to, with the network denied and allowed.
func checkAgentCovered(t *testing.T, socks ...string) {
	t.Helper()
	if err := os.Mkdir(filepath.Dir(socks[0]), 0o700); err != nil {
		t.Fatal(err)
	}
	script := ""
	for _, sock := range socks {
		ln, err := net.Listen("unix", sock)
		if err != nil {
			t.Skip(err)
		}
		t.Cleanup(func() { ln.Close() })
		script += "test -S " + sock + " && echo socket; test -e " + sock + " && echo present; "
	}
	root := workspace(t, map[string]string{"src/a.go": "package a\n"})
	s := start(t, root, "--mode", "trusted", "--sandbox", "require")
	script += "echo done"
	for _, network := range []bool{false, false, true} {
		m := structured(t, s.call("run_command", map[string]any{"network": network, "command": script}))
		got, _ := m["stdout"].(string)
		if mech, _ := m["sandbox"].(string); !strings.HasPrefix(mech, "bubblewrap") || !strings.Contains(got, "done") {
			t.Fatalf("the command did not run confined: sandbox %q (%q)", mech, got)
		}
		if strings.Contains(got, "socket") || strings.Count(got, "present") != len(socks) {
			t.Fatalf("a confined command (network %v) finds the agent's socket as it is, or not at all: %q", network, got)
		}
	}
}
