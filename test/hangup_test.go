package test

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startHungUp starts juju in edit mode for a client that takes
// elicitations, with a minute for the owner to answer, and sends a
// run_command that needs the owner's approval; it returns once the
// question is asked, with the question's id.
func startHungUp(t *testing.T) (r *rawSession, root, question string) {
	t.Helper()
	root = workspace(t, map[string]string{"a.txt": "a\n"})
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[approvals]\ntimeoutMs = 60000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = startRaw(t, root, "--mode", "edit", "--sandbox", "off", "--config", cfg)
	if init := r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}}`); init["result"] == nil {
		t.Fatalf("initialize: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"touch ran"}}}`+"\n")
	q := r.recv(t, "the approval question", 15*time.Second)
	if q["method"] != "elicitation/create" {
		t.Fatalf("want an elicitation, got %s", mustJSON(q))
	}
	return r, root, string(mustJSON(q["id"]))
}

// ranOnce reads the answer to the call startHungUp made, and fails the
// test unless the command ran and juju then exited; what names how the
// call was let run.
func ranOnce(t *testing.T, r *rawSession, root, what string) {
	t.Helper()
	got := r.recv(t, "the answer of the call "+what, 30*time.Second)
	if s := string(mustJSON(got)); got["result"] == nil || strings.Contains(s, "APPROVAL") || strings.Contains(s, `"isError":true`) {
		t.Fatalf("the call %s: %s", what, s)
	}
	if !exists(root, "ran") {
		t.Fatalf("the command %s did not run", what)
	}
	r.waitExit(t, 15*time.Second, "juju did not exit within 15 s of its stdin ending and its calls answered")
}

// TestHangUpGivesTheQuestionToTheTerminal: a client that closes juju's
// stdin while the owner's question is open in it can answer nothing more.
// The question is given up at once, and the call waits for juju approvals
// in a terminal, where the owner can still let it run, and its answer is
// written. Before, the call waited the owner's whole time (here a minute)
// for an answer that could not come, with nothing for the terminal to
// approve. An answer the client wrote before it closed its stdin is
// taken.
func TestHangUpGivesTheQuestionToTheTerminal(t *testing.T) {
	t.Run("unanswered", func(t *testing.T) {
		r, root, _ := startHungUp(t)
		hungUp := time.Now()
		r.in.Close()
		id := pendingApproval(t, r.home, root)
		if d := time.Since(hungUp); d > 15*time.Second {
			t.Errorf("the approval came %v after the hang-up", d)
		}
		juju(t, r.home, root, "approvals", "approve", id)
		ranOnce(t, r, root, "approved in the terminal")
	})
	t.Run("answered_then_hung_up", func(t *testing.T) {
		r, root, q := startHungUp(t)
		io.WriteString(r.in, `{"jsonrpc":"2.0","id":`+q+`,"result":{"action":"accept","content":{"approve":true}}}`+"\n")
		r.in.Close()
		ranOnce(t, r, root, "the client approved before it hung up")
	})
}

// pendingApproval waits up to 15 s for an approval pending in root's
// workspace and returns its id.
func pendingApproval(t *testing.T, home, root string) string {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var list []struct {
			ID    string `json:"id"`
			State string `json:"state"`
		}
		out := juju(t, home, root, "approvals", "--json")
		if err := json.Unmarshal([]byte(out), &list); err != nil {
			t.Fatalf("juju approvals --json: %v\n%s", err, out)
		}
		for _, a := range list {
			if a.State == "pending" {
				return a.ID
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no approval pending after 15 s:\n%s", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
