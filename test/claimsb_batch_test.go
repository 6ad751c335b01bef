package test

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// TestClaimBDeepRequestInABatchIsAnsweredByID holds juju to SECURITY.md,
// "The MCP surface": a request nested deeper than Go's JSON reads is
// answered over stdio with its id (a tools/call with an INVALID_ARGUMENT
// result, audited; another request with an invalid-request error), in a
// batch too, and the batch's other requests are served. A batch holding
// one such request was answered with one parse error of id null: the
// client waited for ever for every request of it, a plain ping beside it
// included, and the deep call was in no audit record.
func TestClaimBDeepRequestInABatchIsAnsweredByID(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	r := startRaw(t, root)
	if init := r.send(t, strings.Replace(initializeLine, "2025-06-18", "2025-03-26", 1)); init["result"] == nil {
		t.Fatalf("initialize: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	deep := strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000)
	batch := "[" + strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"deep-call","method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt","x":` + deep + `}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":` + deep + `}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`,
	}, " , ") + "]"
	if _, err := io.WriteString(r.in, batch+"\n"); err != nil {
		t.Fatal(err)
	}
	done := make(chan bool, 1)
	go func() { done <- r.out.Scan() }()
	select {
	case ok := <-done:
		if !ok {
			t.Fatal("no answer to the batch: stdout closed")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no answer to the batch")
	}
	var answers []map[string]any
	if err := json.Unmarshal(r.out.Bytes(), &answers); err != nil {
		t.Fatalf("the batch was not answered with a batch: %.400s", r.out.Bytes())
	}
	byID := map[any]map[string]any{}
	for _, a := range answers {
		byID[a["id"]] = a
	}
	if a := byID[float64(1)]; a == nil || a["result"] == nil {
		t.Errorf("the ping beside the deep requests: %.300s", mustJSON(a))
	}
	a := byID["deep-call"]
	res, _ := a["result"].(map[string]any)
	if res == nil || res["isError"] != true || !strings.Contains(string(mustJSON(res)), "INVALID_ARGUMENT: the arguments of read_file are nested deeper than 10,000") {
		t.Errorf("the deep tools/call: want an INVALID_ARGUMENT result for its id, got %.400s", mustJSON(a))
	}
	if a := byID[float64(3)]; a == nil || rpcError(t, a)["code"] != float64(-32600) {
		t.Errorf("the deep ping: want an invalid-request error for id 3, got %.300s", mustJSON(a))
	}
	if a := byID[float64(4)]; a == nil || !strings.Contains(string(mustJSON(a)), "hello") {
		t.Errorf("the read beside the deep requests: %.300s", mustJSON(a))
	}
	audited := false
	for _, g := range auditJSON(t, r.home, root) {
		if g.Tool == "read_file" && g.Outcome == "INVALID_ARGUMENT" {
			audited = true
		}
	}
	if !audited {
		t.Error("the deep tools/call of the batch is in no audit record")
	}
}
