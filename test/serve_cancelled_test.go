//go:build unix

package test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A call the client cancels with notifications/cancelled over HTTP gets no
// answer, as over stdio: MCP says a cancelled request is not answered. Its
// POST still needs an HTTP response: it ends as 202 with no body, the
// response mcp-go gives a POST that has nothing to answer; before, the
// call's answer went out labelled TIMEOUT ("the call was cancelled before
// the plugin … finished") while the audit recorded it cancelled.
func TestServeCancelledCallIsNotAnswered(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "trusted", "--sandbox", "off")
	for _, c := range []struct {
		version string
		batch   bool // the cancellation comes in a batch
		inBatch bool // the call is sent in a batch, with a ping after it
	}{{"2025-03-26", false, false}, {"2025-11-25", false, false}, {"2025-03-26", true, false}, {"2025-03-26", false, true}} {
		version := c.version
		name := version
		if c.batch {
			name += "/batch"
		}
		if c.inBatch {
			name += "/in-batch"
		}
		t.Run(name, func(t *testing.T) {
			hdr := srv.bearer()
			res, body := srv.raw(t, "POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, hdr)
			sid := res.Header.Get("Mcp-Session-Id")
			if res.StatusCode != 200 || sid == "" {
				t.Fatalf("initialize: %d %s", res.StatusCode, body)
			}
			h := merge(hdr, map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": version})
			srv.raw(t, "POST", "/mcp", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h)
			marker := "started-" + strings.ReplaceAll(name, "/", "-") + ".txt"
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			call := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"touch ` + marker + ` && sleep 45.5"}}}`
			if c.inBatch {
				call = `[` + call + `,{"jsonrpc":"2.0","id":7,"method":"ping"}]`
			}
			got := postAside(ctx, srv.url, call, h)
			for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
				if _, err := statIn(root, marker); err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the command did not start:\n%s", srv.log)
				}
			}
			cancelled, want := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"user"}}`, 202
			if c.batch {
				cancelled, want = `[`+cancelled+`,{"jsonrpc":"2.0","id":6,"method":"ping"}]`, 200
			}
			if res, body := srv.raw(t, "POST", "/mcp", cancelled, h); res.StatusCode != want {
				t.Fatalf("notifications/cancelled: %d %s", res.StatusCode, body)
			}
			select {
			case a := <-got:
				if c.inBatch {
					// The batch's stream answers the ping alone.
					if a.err != nil || a.status != http.StatusOK || strings.Contains(a.body, `"id":5`) || strings.Contains(a.body, "TIMEOUT") || !strings.Contains(a.body, `"id":7`) {
						t.Errorf("the batch holding the cancelled call: %d %q %v, want the ping's answer alone", a.status, a.body, a.err)
					}
					break
				}
				if a.err != nil || a.status != http.StatusAccepted || strings.Contains(a.body, `"id"`) || strings.Contains(a.body, "TIMEOUT") {
					t.Errorf("the cancelled call's POST: %d %q %v, want 202 and no answer", a.status, a.body, a.err)
				}
			case <-time.After(40 * time.Second):
				t.Errorf("the cancelled call still runs 40 s after notifications/cancelled")
			}
		})
	}
}

// A request of a batch that the client cancels while an earlier one of
// the batch runs is never served: a batch is served one request after
// another, and a cancellation that came before the request's turn found
// nothing to cancel, so the request ran once its turn came (its command
// ran, its write landed) and was answered, where the same request sent
// alone would have been stopped and left unanswered.
func TestServeBatchRequestCancelledBeforeItsTurn(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "trusted", "--sandbox", "off")
	hdr := srv.bearer()
	res, body := srv.raw(t, "POST", "/mcp", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, hdr)
	sid := res.Header.Get("Mcp-Session-Id")
	if res.StatusCode != 200 || sid == "" {
		t.Fatalf("initialize: %d %s", res.StatusCode, body)
	}
	h := merge(hdr, map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-03-26"})
	srv.raw(t, "POST", "/mcp", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h)

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	got := postAside(ctx, srv.url, `[`+
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"touch first.txt && sleep 45.7"}}},`+
		`{"jsonrpc":"2.0","id":"six","method":"tools/call","params":{"name":"run_command","arguments":{"command":"touch second.txt"}}},`+
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"third.txt","content":"x\n"}}},`+
		`{"jsonrpc":"2.0","id":7,"method":"ping"}]`, h)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, err := statIn(root, "first.txt"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the batch's first command did not start:\n%s", srv.log)
		}
	}
	for _, id := range []string{`"six"`, `6`, `5`} {
		if res, body := srv.raw(t, "POST", "/mcp", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+id+`,"reason":"user"}}`, h); res.StatusCode != 202 {
			t.Fatalf("notifications/cancelled of %s: %d %s", id, res.StatusCode, body)
		}
	}
	select {
	case a := <-got:
		if a.err != nil || a.status != http.StatusOK || !strings.Contains(a.body, `"id":7`) ||
			strings.Contains(a.body, `"id":5`) || strings.Contains(a.body, `"id":6`) || strings.Contains(a.body, `"id":"six"`) {
			t.Errorf("the batch whose calls were cancelled: %d %q %v, want the ping's answer alone", a.status, a.body, a.err)
		}
	case <-time.After(40 * time.Second):
		t.Fatal("the batch still runs 40 s after its calls were cancelled")
	}
	mustNotExist(t, root, "second.txt")
	mustNotExist(t, root, "third.txt")

	// A request of a batch that nobody cancelled still runs and is answered.
	res = postBatch(t, srv, `[{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"fourth.txt","content":"x\n"}}}]`, h)
	answered := false
	sseMessages(t, res, func(m map[string]any) bool {
		answered = answered || m["id"] == float64(8) && m["result"] != nil
		return true
	})
	if _, err := statIn(root, "fourth.txt"); err != nil || !answered {
		t.Fatalf("a batched write nobody cancelled: answered %v, %v", answered, err)
	}
}
