package test

import (
	"encoding/json"
	"fmt"
	"io"
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

// A client of protocol 2026-07-28 declares its name with each call: one
// stdio connection declaring a new name each time has one client's share
// of the waiting approvals, not one per name, and the owner's other
// clients are still asked.
func TestApprovalShareOfOneConnection(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	home := newHome(t)
	writeConfig(t, home, "[approvals]\ntimeoutMs = 100\n")
	r := startRawHome(t, home, root, io.Discard, "--mode", "inspect")
	codes := map[string]int{}
	for i := range approval.MaxPerClient + 4 {
		meta := fmt.Sprintf(`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"name-%d","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`, i)
		got := r.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"f%d.txt","content":"x"},%s}}`, i+1, i, meta))
		var res struct {
			Content []struct{ Text string } `json:"content"`
		}
		json.Unmarshal(mustJSON(got["result"]), &res)
		if len(res.Content) == 0 {
			t.Fatalf("call %d: %s", i, mustJSON(got))
		}
		code, _, _ := strings.Cut(res.Content[0].Text, ":")
		codes[code]++
	}
	if codes["APPROVAL_PENDING"] != approval.MaxPerClient || codes["TOO_LARGE"] != 4 {
		t.Errorf("one connection under %d names: %v, want %d APPROVAL_PENDING and 4 TOO_LARGE", approval.MaxPerClient+4, codes, approval.MaxPerClient)
	}
	victim := startGate(t, home, root, "inspect", "victim-e2e", nil)
	victim.fail("write_file", map[string]any{"path": "v.txt", "content": "v"}, "APPROVAL_PENDING")
}
