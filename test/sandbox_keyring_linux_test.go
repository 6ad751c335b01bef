//go:build linux && amd64

package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Kernel keyrings are no file and no namespace bubblewrap makes holds
// them: a confined command kept juju's session keyring, the one a login
// gives every program of the owner's session (pam_keyinit), where it read
// a key the owner's programs had put there, replaced it, and left keys of
// its own that outlived juju. The helper's seccomp filter refuses the
// keyring calls (add_key, request_key, keyctl) with ENOSYS, as on a
// kernel built without keys.
func TestSandboxReachesNoKeyring(t *testing.T) {
	needSandbox(t)
	dir, err := buildTestProgram()
	if err != nil {
		t.Fatal(err)
	}
	const name, value = "juju-e2e-owner-key", "KEY-OF-THE-OWNER"
	wrap := []string{filepath.Join(dir, "keyring"), "wrap", name, value}
	probe := func(sandbox string) string {
		root := workspace(t, map[string]string{"a.txt": "a\n"})
		b, err := os.ReadFile(filepath.Join(dir, "keyring"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "keyring"), b, 0o755); err != nil {
			t.Fatal(err)
		}
		s := startWrapped(t, t.TempDir(), root, wrap, "--mode", "trusted", "--sandbox", sandbox)
		m := structured(t, s.call("run_command", map[string]any{"command": "./keyring probe " + name}))
		out, _ := m["stdout"].(string)
		if mech, _ := m["sandbox"].(string); sandbox == "require" && !strings.HasPrefix(mech, "bubblewrap") {
			t.Fatalf("not confined: sandbox %q", mech)
		}
		t.Logf("sandbox %s:\n%s", sandbox, out)
		if !strings.Contains(out, "search:") || !strings.Contains(out, "add:") {
			t.Fatalf("the probe did not run through: %v", m)
		}
		return out
	}
	// Unconfined, the command finds the owner's key: the keyring is there.
	if out := probe("off"); !strings.Contains(out, value) {
		t.Fatalf("unconfined, the command did not find the key juju's keyring holds; the test proves nothing:\n%s", out)
	}
	out := probe("require")
	if strings.Contains(out, value) {
		t.Errorf("a confined command read a key of juju's session keyring:\n%s", out)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.Contains(l, "function not implemented") {
			t.Errorf("a confined command's keyring call was not refused: %q", l)
		}
	}
}
