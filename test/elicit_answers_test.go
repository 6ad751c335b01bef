package test

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An approval asked through elicitation runs the call only on a yes juju
// can read: accept with approve true. An accept whose approve is of another
// type or value is no yes, and nothing runs.
func TestElicitationAnswersJujuCannotReadRefuse(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	r := startRaw(t, root, "--mode", "edit", "--sandbox", "off")
	init := r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}}`)
	if init["result"] == nil {
		t.Fatalf("initialize: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	for i, c := range []struct {
		content string // the accept's content
		runs    bool
	}{
		{`{"approve":"maybe"}`, false},
		{`{"approve":1}`, false},
		{`["approve"]`, false},
		{`{"approve":true}`, true},
	} {
		marker := fmt.Sprintf("ran-%d", i)
		io.WriteString(r.in, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"touch %s"}}}`+"\n", 10+i, marker))
		ask := r.recv(t, "the approval question", 15*time.Second)
		if ask["method"] != "elicitation/create" {
			t.Fatalf("want an elicitation, got %s", mustJSON(ask))
		}
		id, _ := json.Marshal(ask["id"])
		got := r.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"action":"accept","content":%s}}`, id, c.content))
		res, _ := got["result"].(map[string]any)
		_, err := os.Stat(filepath.Join(root, marker))
		ran := err == nil
		if ran != c.runs || res == nil || (res["isError"] == true) == c.runs {
			t.Fatalf("accept with %s: ran %v, answer %s", c.content, ran, mustJSON(got))
		}
		if !c.runs && !strings.Contains(string(mustJSON(res)), "APPROVAL_DENIED") {
			t.Fatalf("accept with %s: %s", c.content, mustJSON(got))
		}
	}
}

// TestRoundTripApprovalIsTakenOnce holds juju to "accept runs the call
// once" for clients of protocol 2026-07-28, which get the question as an
// input-required result and answer it by retrying the call with the
// request state juju signed: the same answer sent again is asked again,
// and the command runs once.
func TestRoundTripApprovalIsTakenOnce(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	r := startRaw(t, root, "--mode", "edit", "--sandbox", "off")
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}`
	call := func(id int, extra string) map[string]any {
		t.Helper()
		got := r.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"echo x >> ran.txt"},%s%s}}`, id, meta, extra))
		res, _ := got["result"].(map[string]any)
		if res == nil {
			t.Fatalf("call %d: %s", id, mustJSON(got))
		}
		return res
	}
	asked := func(res map[string]any) string {
		t.Helper()
		state, _ := res["requestState"].(string)
		if res["resultType"] != "input_required" || state == "" || !strings.Contains(string(mustJSON(res)), "Allow this call once?") {
			t.Fatalf("want the approval question, got %s", mustJSON(res))
		}
		return state
	}
	ran := func() int {
		b, _ := os.ReadFile(filepath.Join(root, "ran.txt"))
		return strings.Count(string(b), "x")
	}
	state := asked(call(1, ""))
	yes := `,"inputResponses":{"juju-approval":{"action":"accept","content":{"approve":true}}},"requestState":` + string(mustJSON(state))
	if res := call(2, yes); res["isError"] == true || ran() != 1 {
		t.Fatalf("the approved call: ran %d times, %s", ran(), mustJSON(res))
	}
	for id := 3; id <= 4; id++ {
		asked(call(id, yes))
	}
	if n := ran(); n != 1 {
		t.Fatalf("one yes ran the command %d times", n)
	}
	if res := call(5, strings.Replace(yes, state, asked(call(6, "")), 1)); res["isError"] == true || ran() != 2 {
		t.Fatalf("a fresh yes: ran %d times, %s", ran(), mustJSON(res))
	}
}
