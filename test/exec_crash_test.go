//go:build linux

package test

import (
	"strings"
	"testing"
)

// TestExecSignalEndsAsAShellSays: a command a signal ends that juju did
// not send (a crash, the out-of-memory killer, its own kill) is reported
// as a shell reports it, exit 128+n, with the signal named when juju knows
// it, and the same with or without the sandbox (whose bubblewrap reports
// only 128+n); killed stays juju's word for its own kills.
func TestExecSignalEndsAsAShellSays(t *testing.T) {
	s := startExec(t, workspace(t, nil))
	res := s.call("run_command", map[string]any{"command": "kill -SEGV $$"})
	m := structured(t, res)
	if m["state"] != "exited" || m["exitCode"] != float64(139) || m["signal"] != "segmentation fault" {
		t.Errorf("unsandboxed: %v", m)
	}
	if !strings.Contains(text(res), "\nexit 139 (segmentation fault) in ") {
		t.Errorf("unsandboxed text:\n%s", text(res))
	}
	m = structured(t, s.call("exec_command", map[string]any{"program": "sh", "args": []any{"-c", "kill -KILL $$"}}))
	if m["state"] != "exited" || m["exitCode"] != float64(137) || m["signal"] != "killed" {
		t.Errorf("unsandboxed SIGKILL: %v", m)
	}

	needSandbox(t)
	m = structured(t, s.call("run_command", map[string]any{"command": "kill -SEGV $$", "sandbox": true}))
	if m["state"] != "exited" || m["exitCode"] != float64(139) || m["sandbox"] == "none" {
		t.Errorf("sandboxed: %v", m)
	}
}
