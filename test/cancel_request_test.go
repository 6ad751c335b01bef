package test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestCancellationSentAsARequestCancelsNothing: a notifications/cancelled
// that carries an id is a request to JSON-RPC, which juju answers "method
// not found" (-32601) over stdio; it cancels nothing, so the call it names
// runs to its end and is answered. juju's loop read it as a cancellation
// and dropped the call's answer, while mcp-go let the call run: the client
// waited for ever.
func TestCancellationSentAsARequestCancelsNothing(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	r := startRawExec(t, root)
	io.WriteString(r.in, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"touch started; while [ ! -e go ]; do sleep 0.05; done; echo ran-2","timeoutMs":60000}}}`+"\n")
	waitFor(t, "the command to start", func() bool { _, err := statIn(root, "started"); return err == nil })
	got := r.send(t, `{"jsonrpc":"2.0","id":9,"method":"notifications/cancelled","params":{"requestId":2}}`)
	if e := rpcError(t, got); got["id"] != 9.0 || e["code"] != float64(mcp.METHOD_NOT_FOUND) {
		t.Fatalf("a cancellation with an id was answered %s, want -32601 for id 9", mustJSON(got))
	}
	if err := os.WriteFile(filepath.Join(root, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	m := r.recv(t, "the call named by the cancellation sent as a request", 60*time.Second)
	if m["id"] != 2.0 || !strings.Contains(string(mustJSON(m["result"])), "ran-2") {
		t.Fatalf("the call named by a cancellation sent as a request was answered %s, want its output", mustJSON(m))
	}
}
