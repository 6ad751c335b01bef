package test

import (
	"io"
	"strings"
	"testing"
)

// A second initialize in a stdio session is refused with its id, and the
// session keeps the client name the first gave: mcp-go answered it and
// took the new name, so one process's audit named two clients.
func TestSecondInitializeRefused(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	r := startRaw(t, root)
	if init := r.send(t, initializeLine); init["result"] == nil {
		t.Fatalf("initialize failed: %s", mustJSON(init))
	}
	io.WriteString(r.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	read := `{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`
	if got := r.send(t, strings.Replace(read, "%s", "2", 1)); got["result"] == nil {
		t.Fatalf("read_file: %s", mustJSON(got))
	}
	again := r.send(t, `{"jsonrpc":"2.0","id":"again","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"claude-code","version":"1"}}}`)
	if e := rpcError(t, again); e["code"] != float64(-32600) || again["id"] != "again" || !strings.Contains(e["message"].(string), "already initialized") {
		t.Fatalf("a second initialize: want -32600 with its id, got %s", mustJSON(again))
	}
	if got := r.send(t, strings.Replace(read, "%s", "3", 1)); got["result"] == nil {
		t.Fatalf("read_file after the refused initialize: %s", mustJSON(got))
	}
	r.in.Close()
	r.cmd.Wait()
	var clients []string
	for _, e := range auditJSON(t, r.home, root) {
		if e.Tool == "read_file" {
			clients = append(clients, e.Client)
		}
	}
	if len(clients) != 2 || clients[0] != clients[1] || clients[0] == "claude-code" {
		t.Errorf("the session's read_file calls are audited as %q, want one client twice, the first initialize's", clients)
	}
}
