//go:build linux && amd64

package test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// buildTestProgram builds one of test/internal's programs, statically, once
// per test binary.
var buildTestProgram = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "juju-e2e-programs-*")
	if err != nil {
		return "", err
	}
	for _, name := range []string{"nolandlock", "ptracechmod", "keyring"} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, name), "./test/internal/"+name)
		cmd.Dir = repoRoot
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("building %s: %v\n%s", name, err, out)
		}
	}
	return dir, nil
})

// On a kernel without Landlock, a confined command could still ptrace
// bubblewrap's init, PID 1 of the sandbox (the same user, dumpable, and
// under none of the helper's seccomp filter: the helper installs it on
// itself, after bubblewrap forked that init), and have it make the
// set-user-ID file the filter refuses the command. juju hands bubblewrap
// the filter too, which it installs in its init: the chmod fails there as
// well. (With Landlock, a confined process cannot ptrace one outside its
// domain.)
func TestSandboxWithoutLandlockMakesNoSetIDFiles(t *testing.T) {
	needSandbox(t)
	dir, err := buildTestProgram()
	if err != nil {
		t.Fatal(err)
	}
	root := workspace(t, map[string]string{"src/a.go": "package a\n"})
	b, err := os.ReadFile(filepath.Join(dir, "ptracechmod"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "ptracechmod"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	s := startWrapped(t, t.TempDir(), root, []string{filepath.Join(dir, "nolandlock")}, "--mode", "trusted", "--sandbox", "require")
	m := structured(t, s.call("run_command", map[string]any{"command": `
cp /bin/sh victim && chmod 755 victim
chmod 4755 victim 2>/dev/null; echo chmod=$?
./ptracechmod victim
echo done`}))
	out, _ := m["stdout"].(string)
	if mech, _ := m["sandbox"].(string); mech != "bubblewrap" {
		t.Fatalf("juju did not confine the command with bubblewrap alone: sandbox %q (%s)", mech, out)
	}
	t.Logf("the command:\n%s", out)
	if !strings.Contains(out, "chmod=1") || !strings.Contains(out, "done") {
		t.Fatalf("the command did not run through: %q", out)
	}
	if !strings.Contains(out, "chmod in pid 1:") {
		t.Logf("the chmod was not even attempted in PID 1 (%q)", out)
	}
	fi, err := os.Lstat(filepath.Join(root, "victim"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&(os.ModeSetuid|os.ModeSetgid) != 0 {
		t.Fatalf("a confined command made a set-user-ID file through bubblewrap's init: %v (%s)", fi.Mode(), out)
	}
}

// A descriptor juju inherited from whatever started it (an MCP client, a
// shell) without close-on-exec must not reach a sandboxed command: one of
// a folder outside the roots let the command write there through
// /proc/self/fd/N wherever Landlock did not stop it (bubblewrap's mounts
// are of the sandbox's own namespace; the descriptor is of the owner's).
// With Landlock and without.
func TestSandboxGetsNoInheritedFiles(t *testing.T) {
	needSandbox(t)
	dir, err := buildTestProgram()
	if err != nil {
		t.Fatal(err)
	}
	out := outside(t)
	// Not close-on-exec (os.Open would set it): juju inherits it.
	fd, err := syscall.Open(out, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	n := strconv.Itoa(fd)
	root := workspace(t, map[string]string{"src/a.go": "package a\n"})
	for _, wrap := range [][]string{nil, {filepath.Join(dir, "nolandlock")}} {
		s := startWrapped(t, t.TempDir(), root, wrap, "--mode", "trusted", "--sandbox", "require")
		m := structured(t, s.call("run_command", map[string]any{"command": `
test -e /proc/self/fd/` + n + ` && echo inherited
echo PWNED > /proc/self/fd/` + n + `/victim 2>/dev/null && echo wrote
echo PWNED > /proc/1/fd/` + n + `/victim1 2>/dev/null && echo wrote-through-pid-1
echo done`}))
		got, _ := m["stdout"].(string)
		if mech, _ := m["sandbox"].(string); !strings.HasPrefix(mech, "bubblewrap") || !strings.Contains(got, "done") {
			t.Fatalf("the command did not run confined: sandbox %q (%q)", mech, got)
		}
		for _, f := range []string{"victim", "victim1"} {
			if _, err := os.Stat(filepath.Join(out, f)); err == nil {
				t.Fatalf("a command under %s wrote outside the roots through a descriptor juju inherited (%q)", m["sandbox"], got)
			}
		}
		if strings.Contains(got, "inherited") {
			t.Fatalf("a command under %s holds descriptor %s juju inherited (%q)", m["sandbox"], n, got)
		}
	}
}
