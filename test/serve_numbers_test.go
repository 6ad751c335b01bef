package test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestServeUnreadableNumbers checks that a tool call whose arguments hold a
// number no float64 holds (1e400) is answered over HTTP, alone and in a
// batch, as a tool result with INVALID_ARGUMENT, as on stdio, and not as a
// JSON-RPC error the client reports as a failed request.
func TestServeUnreadableNumbers(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	srv := startServe(t, root, "--mode", "trusted")
	s := srv.connect(t, "numbers", "2025-06-18")
	msg := s.fail("read_file", map[string]any{"path": "a.txt", "offset": json.Number("1e400")}, "INVALID_ARGUMENT")
	if !strings.Contains(msg, "1e400") {
		t.Errorf("the refusal does not name the number: %s", msg)
	}
	if res := s.call("read_file", map[string]any{"path": "a.txt"}); res.IsError || !strings.Contains(text(res), "hello") {
		t.Errorf("the session after the refusal: %s", text(res))
	}

	sid := srv.initSession(t, srv.bearer())
	sess := merge(srv.bearer(), map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-03-26"})
	res := postBatch(t, srv, `[{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt","limit":-7e999}}},`+
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}]`, sess)
	got := map[float64]string{}
	sseMessages(t, res, func(m map[string]any) bool {
		got[m["id"].(float64)] = string(mustJSON(m))
		return true
	})
	if a := got[7]; !strings.Contains(a, `"isError":true`) || !strings.Contains(a, "INVALID_ARGUMENT") || !strings.Contains(a, "-7e999") {
		t.Errorf("a 1e999 in a batch: %s", a)
	}
	if a := got[8]; !strings.Contains(a, "hello") {
		t.Errorf("the call beside it: %s", a)
	}
}
