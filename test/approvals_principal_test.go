package test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/approval"
)

// A local client that declares an OAuth client's name as juju writes it
// ("claude [oauth:c_1]") is not that client: it neither sees nor uses the
// OAuth client's approvals, and the audit does not name it as that client.
func TestLocalClientCannotPoseAsOAuthClient(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	home := gateHome(t, 300*time.Millisecond)
	const posed = "claude [oauth:c_1]"
	s := startGate(t, home, root, "edit", posed, nil)
	s.fail("test_gated_exec", map[string]any{"text": "warm-up"}, "APPROVAL_PENDING") // makes the approvals folder

	// The OAuth client c_1 of juju serve holds an approval of a call.
	dirs, _ := filepath.Glob(filepath.Join(home, "state", "workspaces", "*", "approvals"))
	if len(dirs) != 1 {
		t.Fatalf("approvals folders: %v", dirs)
	}
	store := approval.Open(dirs[0], approval.Options{})
	args, _ := json.Marshal(map[string]any{"text": "oauth-approved"})
	theirs, err := store.Create(approval.Request{Client: posed, Principal: "oauth:c_1", Plugin: "test-gated", Tool: "test_gated_exec", Tier: "X",
		Args: `{text: "oauth-approved"}`, ArgsHash: approval.HashArgs(args), Epoch: store.Epoch()}, args)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Decide(theirs.ID, true, "cli"); err != nil {
		t.Fatal(err)
	}

	if got := s.ok("approval_status", map[string]any{}); strings.Contains(got, theirs.ID) {
		t.Errorf("a local client under the OAuth client's name lists its approval: %s", got)
	}
	s.fail("approval_status", map[string]any{"id": theirs.ID}, "NOT_FOUND")
	s.fail("test_gated_exec", map[string]any{"text": "oauth-approved"}, "APPROVAL_PENDING")
	if s.ran("oauth-approved") {
		t.Fatal("a local client ran the call approved for an OAuth client of the same name")
	}
	if r, _ := store.Get(theirs.ID); r.State != approval.Approved {
		t.Errorf("the OAuth client's approval is %s, want it still approved for that client", r.State)
	}
	for _, e := range auditJSON(t, home, root) {
		if e.Client == posed {
			t.Errorf("the audit names the local client as the OAuth client: %+v", e)
		}
	}
}
