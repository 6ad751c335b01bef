package test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/approval"
)

// A client that fills its share of the waiting approvals is refused,
// TOO_LARGE saying why, while another client is still asked; the owner
// clears the flood with juju approvals deny --client, and the client is
// asked again.
func TestApprovalShareOfOneClient(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	home := gateHome(t, 300*time.Millisecond)
	flood := startGate(t, home, root, "edit", "flood-e2e", nil)
	flood.fail("test_gated_exec", map[string]any{"text": "first"}, "APPROVAL_PENDING")
	dirs, _ := filepath.Glob(filepath.Join(home, "state", "workspaces", "*", "approvals"))
	if len(dirs) != 1 {
		t.Fatalf("approvals folders: %v", dirs)
	}
	store := approval.Open(dirs[0], approval.Options{})
	for i := range approval.MaxPerClient - 1 { // as many calls again as a flood makes
		args, _ := json.Marshal(map[string]any{"text": i})
		if _, err := store.Create(approval.Request{Client: "flood-e2e", Tool: "test_gated_exec", Tier: "X", ArgsHash: approval.HashArgs(args)}, args); err != nil {
			t.Fatal(err)
		}
	}

	msg := flood.fail("test_gated_exec", map[string]any{"text": "one too many"}, "TOO_LARGE")
	if !strings.Contains(msg, "of this client's calls") || !strings.Contains(msg, "juju approvals") {
		t.Errorf("the refusal must say that this client's calls wait: %s", msg)
	}
	// A flood of refused calls logs the warning once a minute, not once a
	// call: the log file would grow without bound.
	for i := range 20 {
		flood.fail("test_gated_exec", map[string]any{"text": fmt.Sprint("more ", i)}, "TOO_LARGE")
	}
	if n := strings.Count(flood.stderr(), "fill its share"); n != 1 {
		t.Errorf("21 refused calls logged the warning %d times, want once", n)
	}
	victim := startGate(t, home, root, "edit", "victim-e2e", nil)
	victim.fail("test_gated_exec", map[string]any{"text": "victim"}, "APPROVAL_PENDING")

	if out := juju(t, home, root, "approvals", "deny", "--client", "flood-e2e"); !strings.Contains(out, "Denied 32 calls") {
		t.Errorf("juju approvals deny --client flood-e2e:\n%s", out)
	}
	flood.fail("test_gated_exec", map[string]any{"text": "after the owner cleared"}, "APPROVAL_PENDING")
	if out := juju(t, home, root, "approvals"); !strings.Contains(out, "victim-e2e") {
		t.Errorf("the victim's call is no longer waiting:\n%s", out)
	}
}
