package mcpserver

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// Whatever id a request carries, the answer mcp-go writes for the message
// juju hands it, its id decoded as mcp-go decodes it, names the request's
// id byte for byte once restored, over stdio (restore) and HTTP (idSwap),
// and a cancellation naming the client's id names juju's.
func FuzzIDsComeBackAsWritten(f *testing.F) {
	for _, id := range []string{`1`, `9007199254740993`, `1e3`, `2.50`, `-0`, `"a"`, `"\u0061"`, `"\u001fjuju:1"`, "\"\x1fjuju:1\"", `12345678901234567890123`, `"5"`, `"1e+21"`, `"\u0035"`} {
		f.Add(id)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if !validID(json.RawMessage(raw)) || raw != string(bytes.TrimSpace([]byte(raw))) {
			return
		}
		m := newIDMap()
		msg := []byte(`{"jsonrpc":"2.0","id":` + raw + `,"method":"ping"}`)
		out, id, key := m.substitute(msg, json.RawMessage(raw), "s")
		var base struct {
			ID any `json:"id"`
		}
		if err := json.Unmarshal(out, &base); err != nil {
			t.Fatalf("the message handed on is not JSON: %s", out)
		}
		answer, err := json.Marshal(mcp.JSONRPCResponse{JSONRPC: "2.0", ID: mcp.NewRequestId(base.ID), Result: map[string]any{}})
		if err != nil {
			return
		}
		if got, ok := responseID(answer); !ok || got != key {
			t.Fatalf("the answer %s is struck off as %q, the request was recorded as %q", answer, got, key)
		}
		swapped := idSwap{private: id, raw: json.RawMessage(raw)}
		if bytes.Equal(id, []byte(raw)) {
			swapped = idSwap{}
		}
		cancel, named := m.cancelled([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+raw+`}}`), json.RawMessage(raw), "s")
		if !bytes.Equal(named, id) || !bytes.Contains(cancel, append([]byte(`"requestId":`), id...)) {
			t.Fatalf("a cancellation of %s names %s: %s", raw, named, cancel)
		}
		want := `{"jsonrpc":"2.0","id":` + raw + `,"result":{}}`
		if got := string(swapped.apply([]byte("event: message\ndata: " + string(answer)))); got != "event: message\ndata: "+want {
			t.Fatalf("over HTTP the answer is %s, want %s", got, want)
		}
		if got := string(m.restore(answer)); got != want {
			t.Fatalf("the answer is %s, want %s", got, want)
		}
		if len(m.raw) != 0 || len(m.private) != 0 || len(m.scope) != 0 {
			t.Fatalf("juju's id for %s is still held after its answer", raw)
		}
	})
}

// A cancellation naming a string that reads as a number, and no request
// in flight, or naming what no id can be, is handed to mcp-go naming
// nobody: mcp-go matches by the id's text, so "5" would stop the request
// 5, and null the request "<nil>".
func TestCancellingANumericStringNamesNoNumber(t *testing.T) {
	m := newIDMap()
	for _, id := range []string{`"5"`, `"\u0035"`, `"1e+21"`, `"-0.5"`, `null`, `true`, `[1]`, `{"a":1}`} {
		line := []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `}}`)
		out, named := m.cancelled(line, json.RawMessage(id), "")
		var n struct {
			Params struct {
				RequestID any `json:"requestId"`
			} `json:"params"`
		}
		if json.Unmarshal(out, &n) != nil || !bytes.Equal(named, nobody) || n.Params.RequestID != privatePrefix+"0" {
			t.Errorf("a cancellation of %s names %s: %s", id, named, out)
		}
	}
	if _, named := m.cancelled([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a5"}}`), json.RawMessage(`"a5"`), ""); string(named) != `"a5"` {
		t.Errorf("a cancellation of \"a5\" names %s", named)
	}
}
