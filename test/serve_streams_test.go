package test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// openGet sends a GET for a session's event stream with hdr; the request
// is cancelled at cleanup, and the caller closes the body.
func (s *server) openGet(t *testing.T, hdr map[string]string) (*http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", s.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	return streamClient.Do(req)
}

// streamClient opens every stream on a connection of its own.
var streamClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// drain reads a stream's body in the background; the channel closes when
// it ends.
func drain(res *http.Response) <-chan struct{} {
	ended := make(chan struct{})
	go func() {
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		close(ended)
	}()
	return ended
}

// A tool call over 8 MiB keeps its session tied to the OAuth token it came
// with: after `juju clients revoke`, the session's GET stream ends within
// the 10 s recheck, as it does without the large body.
func TestServeRevokedAfterTooLargeBody(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "trusted")
	g := srv.oauthGrant(t, "large-then-revoked", 1)
	b := map[string]string{"Authorization": "Bearer " + g.token}
	sh := merge(b, map[string]string{"Mcp-Session-Id": srv.initSession(t, b), "Mcp-Protocol-Version": "2025-11-25"})
	res, err := srv.openGet(t, sh)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET stream: %v %v", res, err)
	}
	ended := drain(res)
	big := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"` + strings.Repeat("a", 9<<20) + `"}}}`
	if res, body := srv.raw(t, "POST", "/mcp", big, sh); res.StatusCode != 200 || !strings.Contains(body, "TOO_LARGE") {
		t.Fatalf("a tool call over 8 MiB: %d %.200s", res.StatusCode, body)
	}
	juju(t, srv.home, root, "clients", "revoke", g.client)
	revoked := time.Now()
	select {
	case <-ended:
		t.Logf("the GET stream ended %s after the revocation", time.Since(revoked).Round(time.Second))
	case <-time.After(15 * time.Second):
		t.Fatal("the revoked client's GET stream is open 15 s after juju clients revoke (the recheck runs every 10 s)")
	}
}

// listenStream opens a subscriptions/listen stream of protocol 2026-07-28
// with hdr and returns its status; an open stream is read in the
// background until cleanup.
func (s *server) listenStream(t *testing.T, hdr map[string]string) int {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	body := `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, err := http.NewRequestWithContext(ctx, "POST", s.url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := streamClient.Do(req)
	if err != nil {
		t.Fatalf("subscriptions/listen: %v", err)
	}
	if res.StatusCode != 200 {
		res.Body.Close()
	} else {
		drain(res)
	}
	return res.StatusCode
}

// One OAuth client holds 16 event streams at most, GET streams and
// subscriptions/listen streams together, and one GET stream per session:
// a new one on a session replaces the old once that one is 10 s old (409
// before), and past the share the next is refused (503), while the
// owner's clients still open theirs and call tools.
func TestServeStreamsPerClient(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "inspect")
	g := srv.oauthGrant(t, "many-streams", 1)
	b := map[string]string{"Authorization": "Bearer " + g.token}
	sh := merge(b, map[string]string{"Mcp-Session-Id": srv.initSession(t, b)})
	first, err := srv.openGet(t, sh)
	if err != nil || first.StatusCode != 200 {
		t.Fatalf("GET stream: %v %v", first, err)
	}
	ended := drain(first)
	res, err := srv.openGet(t, sh)
	if err != nil || res.StatusCode != http.StatusConflict {
		t.Fatalf("a second GET stream on one session, seconds after the first: %v %v, want 409", res, err)
	}
	res.Body.Close()
	time.Sleep(10*time.Second + 500*time.Millisecond)
	res, err = srv.openGet(t, sh)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("a new GET stream on one session whose stream is 10 s old: %v %v, want 200", res, err)
	}
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the GET stream a new one replaced is still open")
	}
	drain(res)
	for i := range 15 {
		if c := srv.listenStream(t, b); c != 200 {
			t.Fatalf("listen stream %d of the client: %d", i+1, c)
		}
	}
	if c := srv.listenStream(t, b); c != http.StatusServiceUnavailable {
		t.Fatalf("the client's 17th stream: %d, want 503", c)
	}
	res, err = srv.openGet(t, merge(b, map[string]string{"Mcp-Session-Id": srv.initSession(t, b)}))
	if err != nil || res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Fatalf("a GET stream past the client's share: %v %v, want 503 with Retry-After", res, err)
	}
	res.Body.Close()

	lh := merge(srv.bearer(), map[string]string{"Mcp-Session-Id": srv.initSession(t, srv.bearer())})
	if res, err := srv.openGet(t, lh); err != nil || res.StatusCode != 200 {
		t.Fatalf("the owner's GET stream: %v %v", res, err)
	} else {
		drain(res)
	}
	if c := srv.listenStream(t, srv.bearer()); c != 200 {
		t.Fatalf("the owner's listen stream: %d", c)
	}
	call := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`
	if res, body := srv.raw(t, "POST", "/mcp", call, merge(lh, map[string]string{"Mcp-Protocol-Version": "2025-11-25"})); res.StatusCode != 200 || !strings.Contains(body, "alpha") {
		t.Fatalf("the owner's read_file: %d %.300s", res.StatusCode, body)
	}
}

// Connections opened and left silent never pass juju's cap on open
// connections (256): it closes the longest waiting to make room, so its
// file descriptors stay bounded and the owner's requests are served.
func TestServeConnectionsAreBounded(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "inspect")
	lh := merge(srv.bearer(), map[string]string{"Mcp-Session-Id": srv.initSession(t, srv.bearer()), "Mcp-Protocol-Version": "2025-11-25"})
	fds := func() int {
		ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", srv.cmd.Process.Pid))
		if err != nil {
			t.Fatal(err)
		}
		return len(ents)
	}
	before := fds()
	const silent, limit = 600, 256
	for range silent {
		c, err := net.DialTimeout("tcp", srv.host, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
	}
	time.Sleep(500 * time.Millisecond) // juju accepts what is queued
	if n := fds(); n > before+limit+16 {
		t.Fatalf("juju holds %d descriptors after %d silent connections, %d before: the cap of %d connections does not hold", n, silent, before, limit)
	}
	call := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}}}`
	if res, body := srv.raw(t, "POST", "/mcp", call, lh); res.StatusCode != 200 || !strings.Contains(body, "alpha") {
		t.Fatalf("the owner's read_file beside %d silent connections: %d %.300s", silent, res.StatusCode, body)
	}
}
