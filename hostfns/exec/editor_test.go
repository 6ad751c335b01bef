package exec

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// TestNoEditorFailsAtOnce: a real git commit without -m in a command, whose
// stdin is empty and which has no terminal, fails at once with a sentence
// saying how to give the message, rather than starting vi, which gives up
// after seconds leaving terminal escape codes in the output. An editor
// the owner's environment names is kept.
func TestNoEditorFailsAtOnce(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	const commit = "git init -q && git -c user.name=a -c user.email=a@b commit -q --allow-empty"
	// TERM as the owner's shell has it: with none, git itself refuses.
	path := "PATH=" + os.Getenv("PATH")
	m, _ := newManager(t, Options{Env: []string{path, "HOME=/nowhere", "TERM=xterm-256color"}})
	shell := m.Funcs()[1].Handle
	begin := time.Now()
	r, _, err := call[abi.ExecResult](t, shell, abi.ExecRequest{Command: commit})
	if err != nil {
		t.Fatal(err)
	}
	if r.ExitCode == nil || *r.ExitCode == 0 || !strings.Contains(r.Stderr, "without a terminal") ||
		!strings.Contains(r.Stderr, "git commit -m MESSAGE") || strings.Contains(r.Stdout+r.Stderr, "\x1b") {
		t.Errorf("git commit without -m: %+v", r)
	}
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("the editor took %v to fail", d)
	}

	// The owner's own editor stays: EDITOR=true leaves the message empty.
	m, _ = newManager(t, Options{Env: []string{path, "HOME=/nowhere", "TERM=xterm-256color", "EDITOR=true"}})
	shell = m.Funcs()[1].Handle
	r, _, err = call[abi.ExecResult](t, shell, abi.ExecRequest{Command: commit})
	if err != nil {
		t.Fatal(err)
	}
	if r.ExitCode == nil || *r.ExitCode == 0 || strings.Contains(r.Stderr, "without a terminal") || !strings.Contains(r.Stderr, "empty commit message") {
		t.Errorf("git commit with the owner's EDITOR: %+v", r)
	}
}
