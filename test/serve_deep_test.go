package test

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestServeDeepRequestsAnswerTheirIDs holds juju serve to what juju stdio
// does with a request nested deeper than Go's JSON reads (10,000 arrays and
// objects): it is answered by its id, read from its first bytes (a
// tools/call with an INVALID_ARGUMENT result, audited; another request with
// an invalid-request error), alone or in a batch, and the batch's other
// requests are served. Over HTTP a lone one was a 400 parse error of id
// null, and a batch holding one was that error for the whole batch, its
// other requests, a plain ping included, never served, and the deep call
// in no audit record. A batch still needs its session.
func TestServeDeepRequestsAnswerTheirIDs(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	srv := startServe(t, root, "--mode", "trusted")
	sess := merge(srv.bearer(), map[string]string{"Mcp-Session-Id": srv.initSession(t, srv.bearer()), "Mcp-Protocol-Version": "2025-03-26"})
	deep := strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000)
	deepCall := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt","x":` + deep + `}}}`
	}
	isDeepResult := func(m map[string]any) bool {
		res, _ := m["result"].(map[string]any)
		return res != nil && res["isError"] == true &&
			strings.Contains(string(mustJSON(res)), "INVALID_ARGUMENT: the arguments of read_file are nested deeper than 10,000")
	}

	res, text := srv.raw(t, "POST", "/mcp", deepCall(`"lone"`), sess)
	var lone map[string]any
	json.Unmarshal([]byte(text), &lone)
	if res.StatusCode != 200 || lone["id"] != "lone" || !isDeepResult(lone) {
		t.Errorf("a lone deep tools/call: want an INVALID_ARGUMENT result for its id, got %d %.400s", res.StatusCode, text)
	}
	res, text = srv.raw(t, "POST", "/mcp", `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":`+deep+`}}`, sess)
	json.Unmarshal([]byte(text), &lone)
	if e, _ := lone["error"].(map[string]any); res.StatusCode != 200 || lone["id"] != float64(7) || e["code"] != float64(-32600) {
		t.Errorf("a lone deep ping: want an invalid-request error for id 7, got %d %.400s", res.StatusCode, text)
	}

	batch := "[" + strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		deepCall(`"deep-call"`),
		`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":` + deep + `}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`,
	}, " , ") + "]"
	res = postBatch(t, srv, batch, sess)
	if res.StatusCode != 200 {
		t.Fatalf("a batch holding deep requests: %d", res.StatusCode)
	}
	byID := map[any]map[string]any{}
	var order []string
	sseMessages(t, res, func(m map[string]any) bool {
		byID[m["id"]] = m
		order = append(order, fmt.Sprint(m["id"]))
		return true
	})
	if got := strings.Join(order, " "); got != "1 deep-call 3 4" {
		t.Errorf("answers by id: %q, want 1 deep-call 3 4", got)
	}
	if a := byID[float64(1)]; a == nil || a["result"] == nil {
		t.Errorf("the ping beside the deep requests: %.300s", mustJSON(a))
	}
	if a := byID["deep-call"]; !isDeepResult(a) {
		t.Errorf("the deep tools/call of the batch: want an INVALID_ARGUMENT result for its id, got %.400s", mustJSON(a))
	}
	if e, _ := byID[float64(3)]["error"].(map[string]any); e["code"] != float64(-32600) {
		t.Errorf("the deep ping of the batch: want an invalid-request error for id 3, got %.300s", mustJSON(byID[float64(3)]))
	}
	if a := byID[float64(4)]; a == nil || !strings.Contains(string(mustJSON(a)), "hello") {
		t.Errorf("the read beside the deep requests: %.300s", mustJSON(a))
	}

	if res, text := srv.raw(t, "POST", "/mcp", batch, srv.bearer()); res.StatusCode != 400 {
		t.Errorf("a batch holding deep requests without a session: %d %.200s, want 400", res.StatusCode, text)
	}
	if res, text := srv.raw(t, "POST", "/mcp", deepCall("9"), srv.bearer()); res.StatusCode != 400 {
		t.Errorf("a deep tools/call without a session: %d %.200s, want 400", res.StatusCode, text)
	}

	audited := 0
	for _, g := range auditJSON(t, srv.home, root) {
		if g.Tool == "read_file" && g.Outcome == "INVALID_ARGUMENT" {
			audited++
		}
	}
	if audited != 2 {
		t.Errorf("%d deep tools/call in the audit, want 2 (the lone one and the batch's)", audited)
	}
}

// TestServeUnreadableRequestsAnswerTheirIDs holds juju serve to what juju
// stdio does with a request mcp-go cannot read: its jsonrpc member not a
// string, its method not a name ("", null, a number). Each is refused
// with its id, alone or in a batch, where mcp-go answered a lone one with
// id null, or took one whose method is "" or null for a response and
// answered 202: the client waited for its answer for ever. The request
// beside them in a batch is served.
func TestServeUnreadableRequestsAnswerTheirIDs(t *testing.T) {
	srv := startServe(t, workspace(t, map[string]string{"a.txt": "hello\n"}))
	sess := merge(srv.bearer(), map[string]string{"Mcp-Session-Id": srv.initSession(t, srv.bearer()), "Mcp-Protocol-Version": "2025-03-26"})
	bad := map[string]string{
		`{"jsonrpc":2,"id":"v","method":"ping"}`:   "jsonrpc member must be the string",
		`{"jsonrpc":"2.0","id":"e","method":""}`:   "method must be the name of an MCP method",
		`{"jsonrpc":"2.0","id":"n","method":null}`: "method must be the name of an MCP method",
		`{"jsonrpc":"2.0","id":"5","method":5}`:    "method must be the name of an MCP method",
	}
	var batch []string
	for body, want := range bad {
		var id struct{ ID string }
		json.Unmarshal([]byte(body), &id)
		res, text := srv.raw(t, "POST", "/mcp", body, sess)
		var m map[string]any
		json.Unmarshal([]byte(text), &m)
		if e, _ := m["error"].(map[string]any); res.StatusCode != 200 || m["id"] != id.ID || e["code"] != float64(-32600) || !strings.Contains(fmt.Sprint(e["message"]), want) {
			t.Errorf("%s: want an invalid-request error for id %q saying %q, got %d %.300s", body, id.ID, want, res.StatusCode, text)
		}
		batch = append(batch, body)
	}
	batch = append(batch, `{"jsonrpc":"2.0","id":"ping","method":"ping"}`)
	res := postBatch(t, srv, "["+strings.Join(batch, ",")+"]", sess)
	got := map[any]map[string]any{}
	sseMessages(t, res, func(m map[string]any) bool {
		got[m["id"]] = m
		return true
	})
	for body, want := range bad {
		var id struct{ ID string }
		json.Unmarshal([]byte(body), &id)
		if e, _ := got[id.ID]["error"].(map[string]any); e["code"] != float64(-32600) || !strings.Contains(fmt.Sprint(e["message"]), want) {
			t.Errorf("%s in a batch: want an invalid-request error for id %q saying %q, got %.300s", body, id.ID, want, mustJSON(got[id.ID]))
		}
	}
	if a := got["ping"]; a == nil || a["result"] == nil {
		t.Errorf("the ping beside them in the batch: %.300s", mustJSON(a))
	}
}

// TestMethodNotAStringIsAnsweredByID: over stdio a request whose method is
// not a string (a number, an object) is refused with its id, alone or in a
// batch, and the batch's other requests are served. mcp-go answered a lone
// one as unparsable with id null, and a batch's as not an object, id null:
// the client waited for its answer for ever.
func TestMethodNotAStringIsAnsweredByID(t *testing.T) {
	r := startRaw(t, workspace(t, map[string]string{"a.txt": "hello\n"}))
	if init := r.send(t, strings.Replace(initializeLine, "2025-06-18", "2025-03-26", 1)); init["result"] == nil {
		t.Fatalf("initialize: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	got := r.send(t, `{"jsonrpc":"2.0","id":"m","method":5}`)
	if e := rpcError(t, got); got["id"] != "m" || e["code"] != float64(-32600) || !strings.Contains(fmt.Sprint(e["message"]), "method must be the name") {
		t.Errorf("a method that is a number: want an invalid-request error for id m, got %s", mustJSON(got))
	}
	if _, err := io.WriteString(r.in, `[{"jsonrpc":"2.0","id":"o","method":{"x":1}},{"jsonrpc":"2.0","id":2,"method":"ping"}]`+"\n"); err != nil {
		t.Fatal(err)
	}
	if !r.out.Scan() {
		t.Fatal("no answer to the batch")
	}
	var answers []map[string]any
	if err := json.Unmarshal(r.out.Bytes(), &answers); err != nil || len(answers) != 2 {
		t.Fatalf("the batch's answer: %s", r.out.Bytes())
	}
	if e, _ := answers[0]["error"].(map[string]any); answers[0]["id"] != "o" || e["code"] != float64(-32600) {
		t.Errorf("a method that is an object, in a batch: want an invalid-request error for id o, got %s", mustJSON(answers[0]))
	}
	if answers[1]["id"] != float64(2) || answers[1]["result"] == nil {
		t.Errorf("the ping beside it: %s", mustJSON(answers[1]))
	}
}

// TestServeRefusedCallsNameTheirClient: a tool call juju serve's front
// refuses itself — nested too deep, its name not a string, its body over
// the limit — is audited under the client its session declared, as the
// calls mcp-go serves are and as juju stdio audits the same refusals; it
// was audited under no client at all.
func TestServeRefusedCallsNameTheirClient(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	srv := startServe(t, root)
	sess := merge(srv.bearer(), map[string]string{"Mcp-Session-Id": srv.initSession(t, srv.bearer()), "Mcp-Protocol-Version": "2025-11-25"})
	deep := strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000)
	for name, body := range map[string]string{
		"deep":      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"x":` + deep + `}}}`,
		"nameless":  `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":5,"arguments":{}}}`,
		"too large": `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"b.txt","content":"` + strings.Repeat("x", 9<<20) + `"}}}`,
	} {
		if res, text := srv.raw(t, "POST", "/mcp", body, sess); res.StatusCode != 200 || !strings.Contains(text, `"id":`) {
			t.Fatalf("%s: %d %.300s", name, res.StatusCode, text)
		}
	}
	var refused []string
	for _, a := range auditJSON(t, srv.home, root) {
		if a.Outcome == "INVALID_ARGUMENT" || a.Outcome == "TOO_LARGE" {
			refused = append(refused, a.Tool+" "+a.Outcome+" by "+a.Client)
			if a.Client != "raw" {
				t.Errorf("%s %s audited under client %q, want the session's, raw", a.Tool, a.Outcome, a.Client)
			}
		}
	}
	if len(refused) != 3 {
		t.Errorf("refused calls in the audit: %q, want 3", refused)
	}
}
