package test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// hiddenPayload is a command whose end a short summary would hide: a
// harmless start, 200 spaces, then the payload, and an ESC that would
// act on the owner's terminal if printed raw.
var hiddenPayload = `echo "running the unit tests for the parser module, please wait a moment"` +
	strings.Repeat(" ", 200) +
	"; touch HIDDEN_PAYLOAD_RAN #\x1b[8m"

// checkShowsPayload fails unless what the owner reads shows the whole
// command: the payload, the run of spaces as a visible marker, the ESC
// escaped.
func checkShowsPayload(t *testing.T, where, got string) {
	t.Helper()
	for _, want := range []string{"HIDDEN_PAYLOAD_RAN", "⟨200 spaces⟩", `#\x1b[8m`} {
		if !strings.Contains(got, want) {
			t.Errorf("%s does not show %q:\n%s", where, want, got)
		}
	}
	if strings.Contains(got, "\x1b") {
		t.Errorf("%s prints a raw ESC:\n%q", where, got)
	}
	if strings.Contains(got, strings.Repeat(" ", 100)) {
		t.Errorf("%s prints the run of spaces raw:\n%q", where, got)
	}
}

// The owner sees the exact arguments of a held call, wherever they look:
// the elicitation prompt, juju approvals, its JSON and juju approvals
// show. Nothing is cut; whitespace runs and control characters show.
func TestApprovalShowsExactArguments(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	home := gateHome(t, 300*time.Millisecond)
	args := map[string]any{"command": hiddenPayload}

	s := startGate(t, home, root, "edit", "payload-e2e", nil)
	id := pendingIn(t, s.fail("run_command", args, "APPROVAL_PENDING"))
	if _, err := os.Stat(filepath.Join(root, "HIDDEN_PAYLOAD_RAN")); err == nil {
		t.Fatal("the held command ran")
	}

	checkShowsPayload(t, "juju approvals", juju(t, home, root, "approvals"))
	if out, err := jujuErr(home, root, "approvals", "show", id); err != nil {
		t.Errorf("juju approvals show %s: %v\n%s", id, err, out)
	} else {
		checkShowsPayload(t, "juju approvals show", out)
	}

	out := juju(t, home, root, "approvals", "--json")
	var recs []struct {
		ID        string          `json:"id"`
		ArgsFull  json.RawMessage `json:"argsFull"`
		ArgsShown string          `json:"argsShown"`
	}
	if err := json.Unmarshal([]byte(out), &recs); err != nil {
		t.Fatalf("juju approvals --json: %v\n%s", err, out)
	}
	found := false
	for _, r := range recs {
		if r.ID != id {
			continue
		}
		found = true
		checkShowsPayload(t, "juju approvals --json argsShown", r.ArgsShown)
		var full map[string]any
		if err := json.Unmarshal(r.ArgsFull, &full); err != nil || full["command"] != hiddenPayload {
			t.Errorf("argsFull is not the exact arguments: %s (%v)", r.ArgsFull, err)
		}
	}
	if !found {
		t.Fatalf("juju approvals --json does not list %s:\n%s", id, out)
	}

	// Asked in the client: the question carries the whole command too.
	e := &elicitor{action: mcp.ElicitationResponseActionDecline}
	asked := startGate(t, home, root, "edit", "payload-elicit-e2e", e)
	asked.fail("run_command", args, "APPROVAL_DENIED")
	q := e.questions()
	if len(q) != 1 {
		t.Fatalf("asked %d times, want 1", len(q))
	}
	checkShowsPayload(t, "the elicitation prompt", q[0])
	if _, err := os.Stat(filepath.Join(root, "HIDDEN_PAYLOAD_RAN")); err == nil {
		t.Fatal("a refused command ran")
	}
}
