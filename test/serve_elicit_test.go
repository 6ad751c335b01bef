package test

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Approvals over HTTP, as on stdio: a client that declared elicitation is
// asked in the client — with a server-initiated request on the session's
// stream (protocol versions before 2026-07-28, with and without the GET
// stream open) or as a question answered by retrying the call (2026-07-28)
// — accept runs the call once, decline refuses it and nothing runs.
func TestServeApprovalByElicitation(t *testing.T) {
	for _, c := range []struct {
		name, version string
		listen        bool
	}{
		{"2025-11-25", "2025-11-25", false},
		{"2025-11-25 with the GET stream", "2025-11-25", true},
		{"2026-07-28", mcp.LATEST_PROTOCOL_VERSION, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := workspace(t, map[string]string{"a.txt": "hello\n"})
			home := gateHome(t, 10*time.Second)
			srv := startServeHome(t, home, root, "--mode", "inspect")
			e := &elicitor{action: mcp.ElicitationResponseActionAccept}
			var opts []transport.StreamableHTTPCOption
			if c.listen {
				opts = append(opts, transport.WithContinuousListening())
			}
			s := srv.connectOpts(t, "elicit-http", c.version, opts, client.WithElicitationHandler(e))
			s.ok("read_file", map[string]any{"path": "a.txt"})
			if res := s.call("test_gated_edit", map[string]any{"text": "accepted-over-http"}); res.IsError {
				t.Fatalf("accepted call: %s\n%s", text(res), srv.log)
			}
			if !srv.logged(": accepted-over-http") {
				t.Fatal("the accepted call did not run")
			}
			e.set(mcp.ElicitationResponseActionDecline)
			s.fail("test_gated_exec", map[string]any{"text": "declined-over-http"}, "APPROVAL_DENIED")
			if srv.logged(": declined-over-http") {
				t.Fatal("a declined call ran")
			}
			q := e.questions()
			if len(q) != 2 || !strings.Contains(q[0], "elicit-http") || !strings.Contains(q[0], "test_gated_edit") {
				t.Fatalf("questions: %q", q)
			}
		})
	}
}

// Without elicitation, a held call waits for `juju approvals`, as on stdio.
func TestServeApprovalByCLI(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "hello\n"})
	home := gateHome(t, 300*time.Millisecond)
	srv := startServeHome(t, home, root, "--mode", "inspect")
	s := srv.connect(t, "cli-http", "2025-11-25")
	s.fail("test_gated_edit", map[string]any{"text": "held-over-http"}, "APPROVAL_PENDING")
	id := pendingID(t, home, root, "test_gated_edit")
	juju(t, home, root, "approvals", "approve", id)
	if res := s.call("test_gated_edit", map[string]any{"text": "held-over-http"}); res.IsError {
		t.Fatalf("the approved retry: %s", text(res))
	}
	if !srv.logged(": held-over-http") {
		t.Fatal("the approved call did not run")
	}
}

// The GET stream: open for the session's own token, 404 for another
// session, 400 without one; DELETE ends it.
func TestServeGetStream(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	srv := startServe(t, root)
	sid := srv.initSession(t, srv.bearer())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.url, nil)
	req.Header.Set("Authorization", "Bearer "+srv.token)
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	req.Header.Set("Accept", "text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("GET stream: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	// Ending the session ends the stream.
	if r, _ := srv.raw(t, "DELETE", "/mcp", "", merge(srv.bearer(), map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25"})); r.StatusCode != 200 {
		t.Fatalf("DELETE: %d", r.StatusCode)
	}
	done := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Error("the GET stream outlived its session")
	}
	res.Body.Close()
}
