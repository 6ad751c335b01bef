package test

import (
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// With approvals.askInClient = false the owner is never asked through the
// client, whose answer a client can give itself: a client that declared
// elicitation and accepts every question is not asked, the call waits for
// `juju approvals`, and only the owner's answer there runs it. With both
// ways of asking in the client.
func TestApprovalsOnlyInTheTerminal(t *testing.T) {
	for _, version := range []string{mcp.LATEST_PROTOCOL_VERSION, mcp.LATEST_LEGACY_PROTOCOL_VERSION} {
		t.Run(version, func(t *testing.T) {
			root := workspace(t, map[string]string{"a.txt": "hello\n"})
			home := gateHome(t, 2*time.Second)
			writeConfig(t, home, "[approvals]\ntimeoutMs = 2000\naskInClient = false\n")
			e := &elicitor{action: mcp.ElicitationResponseActionAccept}
			s := startGateVersion(t, home, root, "inspect", "terminal-e2e", version, e)

			msg := s.fail("test_gated_edit", map[string]any{"text": "self-approved"}, "APPROVAL_PENDING")
			if q := e.questions(); len(q) != 0 {
				t.Fatalf("the client was asked, and could answer for the owner: %q", q)
			}
			if s.ran("self-approved") {
				t.Fatal("a call waiting for the owner ran")
			}
			id := pendingIn(t, msg)
			juju(t, home, t.TempDir(), "approvals", "approve", "--yes", id)
			s.ok("test_gated_edit", map[string]any{"text": "self-approved"})
			if !s.ran("self-approved") {
				t.Fatal("the call the owner approved in the terminal did not run")
			}
			if q := e.questions(); len(q) != 0 {
				t.Errorf("the client was asked: %q", q)
			}
			for _, r := range auditJSON(t, home, root) {
				if r.Approval != nil && r.Approval.Via == "elicitation" {
					t.Errorf("an approval went through the client: %+v", *r.Approval)
				}
			}
		})
	}
}

// The key is checked like every other: a value that is not a boolean is
// refused at start, naming the key.
func TestAskInClientMustBeABoolean(t *testing.T) {
	home := t.TempDir()
	writeConfig(t, home, "[approvals]\naskInClient = \"no\"\n")
	out, err := jujuErr(home, t.TempDir(), "doctor")
	if err == nil || !strings.Contains(out, "askInClient") {
		t.Fatalf("juju doctor with askInClient = \"no\": %v\n%s", err, out)
	}
}
