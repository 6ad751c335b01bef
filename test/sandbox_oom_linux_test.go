package test

import (
	"strings"
	"testing"
)

// What a confined command writes to the sandbox's tmpfs folders counts
// against no process, so the kernel's out-of-memory killer would take the
// machine's largest process, juju or the owner's own: every confined
// command, the first one and the ones run in the sandbox standing by,
// and what they start, is the first the killer takes.
func TestSandboxedCommandsAreTheFirstTheOOMKillerTakes(t *testing.T) {
	needSandbox(t)
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	s := start(t, root, "--mode", "trusted", "--sandbox", "require")
	for i := range 3 {
		m := structured(t, s.call("run_command", map[string]any{"command": "cat /proc/self/oom_score_adj; bash -c 'cat /proc/self/oom_score_adj'"}))
		if out, _ := m["stdout"].(string); strings.Fields(out) == nil || strings.Join(strings.Fields(out), " ") != "1000 1000" {
			t.Errorf("call %d: the command's oom_score_adj is %q, want 1000 for it and its child", i, out)
		}
	}
}
