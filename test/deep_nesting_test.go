package test

import (
	"io"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// A request nested deeper than Go's JSON reads (10,000 arrays and objects)
// is answered with its id, read from its first bytes: mcp-go answered it
// as unparsable with id null, and the client waited for its answer for
// ever. A tools/call gets an INVALID_ARGUMENT result (SEP-1303), another
// request an invalid-request error; juju serves on.
func TestDeeplyNestedRequestsAnswerTheirIDs(t *testing.T) {
	r := startRaw(t, workspace(t, map[string]string{"a.txt": "hello\n"}))
	if init := r.send(t, initializeLine); init["result"] == nil {
		t.Fatalf("initialize failed: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	deep := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)

	got := r.send(t, `{"jsonrpc":"2.0","id":"deep-call","method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt","x":`+deep+`}}}`)
	res, _ := got["result"].(map[string]any)
	if got["id"] != "deep-call" || res == nil || res["isError"] != true ||
		!strings.Contains(string(mustJSON(res)), "INVALID_ARGUMENT: the arguments of read_file are nested deeper than 10,000") {
		t.Fatalf("a deep tools/call: want an INVALID_ARGUMENT result for its id, got %.400s", mustJSON(got))
	}
	got = r.send(t, `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":`+deep+`}}`)
	if e := rpcError(t, got); got["id"] != float64(7) || e["code"] != float64(mcp.INVALID_REQUEST) {
		t.Fatalf("a deep ping: want an invalid-request error for id 7, got %.400s", mustJSON(got))
	}
	got = r.send(t, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`)
	if !strings.Contains(string(mustJSON(got)), "hello") {
		t.Fatalf("juju stopped serving: %s", mustJSON(got))
	}
}
