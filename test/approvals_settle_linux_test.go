package test

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A juju killed halfway through a change leaves old and new files mixed
// until the journal settles it, which the next call of a running juju
// does. An approval asked then covers the files as the owner could read
// them: the journal settles the change before the owner is asked, so the
// approved command runs on the files they saw, not on files put back
// after their yes.
func TestApprovalIsAskedOnASettledWorkspace(t *testing.T) {
	const n = 200
	root := t.TempDir()
	home := gateHome(t, 300*time.Millisecond)
	oldFiles(root, n)
	s := startGate(t, home, root, "edit", "settle-e2e", nil)
	s.ok("read_file", map[string]any{"path": halfwayName(0)}) // settled at start
	replaced := crashHalfway(t, home, root, n)

	args := map[string]any{"command": "cat " + replaced + " > seen.txt"}
	id := pendingIn(t, s.fail("run_command", args, "APPROVAL_PENDING"))
	asked, _ := os.ReadFile(filepath.Join(root, replaced)) // what the owner could read when asked
	juju(t, home, root, "approvals", "approve", id)
	res := s.call("run_command", args)
	if res.IsError {
		t.Fatalf("the approved command did not run: %s", text(res))
	}
	if seen, _ := os.ReadFile(filepath.Join(root, "seen.txt")); string(seen) != string(asked) {
		t.Fatalf("the owner was asked while %s held %q, and their yes ran the command on %q: the journal settled the crashed change after the approval", replaced, asked, seen)
	}
}
