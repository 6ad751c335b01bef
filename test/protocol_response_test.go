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

// A client's error response is never answered: one that answers juju's
// question hands the call its refusal, and one no request of juju's awaits
// any more (the question of a call the client cancelled, an id juju never
// used), alone or in a batch, gets no answer at all. mcp-go answered such
// a response "method not found" with the id of juju's question, which the
// client read as the answer to its own request of that number.
func TestErrorResponsesAreNotAnswered(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	// until reads answers up to the one of id, failing on one of a
	// response's id, and returns it.
	until := func(t *testing.T, r *rawSession, id string, responses ...string) map[string]any {
		t.Helper()
		for {
			got := r.recv(t, "the answer to "+id, 15*time.Second)
			gotID := string(mustJSON(got["id"]))
			for _, resp := range responses {
				if gotID == resp && got["method"] == nil {
					t.Fatalf("juju answered the client's response of id %s: %s", resp, mustJSON(got))
				}
			}
			if gotID == id {
				return got
			}
		}
	}

	// The owner's time is short, so that a call whose question the client
	// could not show (answered with an error) answers APPROVAL_PENDING soon.
	r := startAsked(t, root)
	ask := func(id int, marker string) string {
		t.Helper()
		io.WriteString(r.in, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"touch %s"}}}`+"\n", id, marker))
		q := r.recv(t, "the approval question", 15*time.Second)
		if q["method"] != "elicitation/create" {
			t.Fatalf("want an elicitation, got %s", mustJSON(q))
		}
		return string(mustJSON(q["id"]))
	}

	// The question answered with an error: the client could not ask, so
	// the call waits for the owner at the terminal (APPROVAL_PENDING once
	// the owner's time is over), and the error itself gets no answer.
	q := ask(2, "ran-2")
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":`+q+`,"error":{"code":-32603,"message":"the form could not be shown"}}`+"\n")
	got := until(t, r, "2", q)
	if res, _ := got["result"].(map[string]any); res == nil || !strings.Contains(string(mustJSON(res)), "APPROVAL_PENDING") {
		t.Fatalf("the call whose question was answered with an error: %s", mustJSON(got))
	}
	if fileExists(root, "ran-2") {
		t.Fatal("the command ran though its question was answered with an error")
	}

	// The call cancelled while its question waits; the client's error
	// answer to the question comes after.
	q = ask(3, "ran-3")
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`+"\n")
	time.Sleep(200 * time.Millisecond) // the call gives its question up
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":`+q+`,"error":{"code":-32800,"message":"request cancelled"}}`+"\n")
	// An error response of an id juju never used, and one whose result is
	// null beside its error.
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":"never","error":{"code":-32603,"message":"x"}}`+"\n")
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":4242,"result":null,"error":{"code":-32603,"message":"x"}}`+"\n")
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":4,"method":"ping"}`+"\n")
	until(t, r, "4", q, `"never"`, "4242", "3")
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":5,"method":"ping"}`+"\n")
	until(t, r, "5", q, `"never"`, "4242", "3")
	if fileExists(root, "ran-3") {
		t.Fatal("the cancelled command ran")
	}

	// In a batch (MCP 2025-03-26): the batch's answer holds its requests'
	// answers alone, and nothing else answers the response.
	b := startRaw(t, root, "--mode", "edit", "--sandbox", "off")
	if init := b.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`); init["result"] == nil {
		t.Fatalf("initialize: %s", mustJSON(init))
	}
	io.WriteString(b.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	io.WriteString(b.in, `[{"jsonrpc":"2.0","id":99,"error":{"code":-32603,"message":"x"}},{"jsonrpc":"2.0","id":6,"method":"ping"}]`+"\n")
	var batch []map[string]any
	if err := json.Unmarshal(b.line(t, "the batch's answer", 15*time.Second), &batch); err != nil || len(batch) != 1 || string(mustJSON(batch[0]["id"])) != "6" {
		t.Fatalf("the batch's answer: %v %s", err, mustJSON(batch))
	}
	for _, id := range []string{"7", "8"} {
		io.WriteString(b.in, `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`+"\n")
		if got := until(t, b, id, "99"); !strings.Contains(string(mustJSON(got)), `"result":{}`) {
			t.Fatalf("ping %s: %s", id, mustJSON(got))
		}
	}
}

// A question juju gives up is withdrawn: when the client cancels the call
// waiting on it, or the owner's time to answer is over, juju sends
// notifications/cancelled naming the elicitation/create, so the client's
// form closes; a question answered is not withdrawn. The form stayed open,
// and a yes given in it later went nowhere.
func TestAbandonedQuestionIsWithdrawn(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	r := startAsked(t, root)
	ask := func(id int) string {
		t.Helper()
		io.WriteString(r.in, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"touch ran-%d"}}}`+"\n", id, id))
		q := r.recv(t, "the approval question", 15*time.Second)
		if q["method"] != "elicitation/create" {
			t.Fatalf("want an elicitation, got %s", mustJSON(q))
		}
		return string(mustJSON(q["id"]))
	}
	// withdrawn reads messages until the withdrawal of question q and the
	// answer of id answer (none when ""), in either order.
	withdrawn := func(q, answer string) map[string]any {
		t.Helper()
		var got map[string]any
		seen := false
		for !seen || (answer != "" && got == nil) {
			m := r.recv(t, "the withdrawal of question "+q, 15*time.Second)
			switch {
			case m["method"] == "notifications/cancelled":
				p, _ := m["params"].(map[string]any)
				if string(mustJSON(p["requestId"])) != q {
					t.Fatalf("withdrew another question than %s: %s", q, mustJSON(m))
				}
				seen = true
			case answer != "" && string(mustJSON(m["id"])) == answer:
				got = m
			default:
				t.Fatalf("want the withdrawal of question %s, got %s", q, mustJSON(m))
			}
		}
		return got
	}

	// The call cancelled while its question waits.
	q := ask(2)
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`+"\n")
	withdrawn(q, "")

	// The owner's time over: the call waits for juju approvals instead.
	q = ask(3)
	got := withdrawn(q, "3")
	if !strings.Contains(string(mustJSON(got)), "APPROVAL_PENDING") {
		t.Fatalf("the call whose question was left unanswered: %s", mustJSON(got))
	}

	// A question answered is not withdrawn.
	q = ask(4)
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":`+q+`,"result":{"action":"decline"}}`+"\n")
	if got := r.recv(t, "the declined call's answer", 15*time.Second); string(mustJSON(got["id"])) != "4" {
		t.Fatalf("want the answer to call 4, got %s", mustJSON(got))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":5,"method":"ping"}`+"\n")
	if got := r.recv(t, "the ping's answer", 15*time.Second); string(mustJSON(got["id"])) != "5" {
		t.Fatalf("want the ping's answer, got %s", mustJSON(got))
	}
	for _, f := range []string{"ran-2", "ran-3", "ran-4"} {
		if fileExists(root, f) {
			t.Errorf("%s: the command ran", f)
		}
	}
}

// A notification whose params is not an object (an array, a number, a
// string) is dropped and never answered, over stdio and HTTP, alone or in
// a batch: mcp-go answered each with a parse error of id null, which
// JSON-RPC forbids for a notification and no client can tie to anything,
// and over HTTP with a 200 where a notification gets 202.
func TestNotificationsWithOddParamsAreNotAnswered(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	odd := []string{
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}`,
		`{"jsonrpc":"2.0","method":"notifications/message","params":5}`,
		`{"jsonrpc":"2.0","method":"notifications/whatever","params":"s"}`,
	}

	r := startRaw(t, root)
	if init := r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`); init["result"] == nil {
		t.Fatalf("initialize: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	for _, n := range odd {
		io.WriteString(r.in, n+"\n")
	}
	if got := r.send(t, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); string(mustJSON(got["id"])) != "2" {
		t.Fatalf("want the ping's answer first, got %s", mustJSON(got))
	}
	io.WriteString(r.in, "["+strings.Join(odd, ",")+`,{"jsonrpc":"2.0","id":3,"method":"ping"}]`+"\n")
	var batch []map[string]any
	if err := json.Unmarshal(r.line(t, "the batch's answer", 15*time.Second), &batch); err != nil || len(batch) != 1 || string(mustJSON(batch[0]["id"])) != "3" {
		t.Fatalf("the batch's answer: %v %s", err, mustJSON(batch))
	}
	if got := r.send(t, `{"jsonrpc":"2.0","id":4,"method":"ping"}`); string(mustJSON(got["id"])) != "4" {
		t.Fatalf("want the ping's answer, got %s", mustJSON(got))
	}

	srv := startServe(t, root)
	sess := merge(srv.bearer(), map[string]string{"Mcp-Session-Id": srv.initSession(t, srv.bearer()), "Mcp-Protocol-Version": "2025-03-26"})
	for _, n := range odd {
		if res, text := srv.raw(t, "POST", "/mcp", n, sess); res.StatusCode != 202 || text != "" {
			t.Errorf("%s over HTTP: want 202 and no body, got %d %.300s", n, res.StatusCode, text)
		}
	}
	res := postBatch(t, srv, "["+strings.Join(odd, ",")+`,{"jsonrpc":"2.0","id":"ping","method":"ping"}]`, sess)
	var got []map[string]any
	sseMessages(t, res, func(m map[string]any) bool {
		got = append(got, m)
		return true
	})
	if len(got) != 1 || got[0]["id"] != "ping" {
		t.Errorf("the batch over HTTP: want the ping's answer alone, got %s", mustJSON(got))
	}
}

// startAsked starts a raw juju in edit mode whose owner has 1.5 s to
// answer a question, and initializes it as a client that takes
// elicitation.
func startAsked(t *testing.T, root string) *rawSession {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[approvals]\ntimeoutMs = 1500\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := startRaw(t, root, "--mode", "edit", "--sandbox", "off", "--config", cfg)
	if init := r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}}`); init["result"] == nil {
		t.Fatalf("initialize: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return r
}
