package mcpserver

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// openEvents sends a request that may open an event stream — a GET, or a
// POST of subscriptions/listen — to the front served at base, as the
// local token unless hdr says otherwise. The request is cancelled by the
// returned function, or at cleanup.
func openEvents(t *testing.T, base, method, body string, hdr map[string]string) (*http.Response, context.CancelFunc, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel) // before the server's Close, which waits for the stream
	req, _ := http.NewRequestWithContext(ctx, method, base+"/mcp", strings.NewReader(body))
	req.Host = "127.0.0.1:7777"
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+testToken)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err == nil && res.StatusCode != 200 {
		res.Body.Close()
	}
	return res, cancel, err
}

// openStream opens a session's GET stream on the front served at base;
// ended receives when the stream ends.
func openStream(t *testing.T, base string, hdr map[string]string) (context.CancelFunc, <-chan error) {
	t.Helper()
	res, cancel, err := openEvents(t, base, "GET", "", hdr)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET stream: %v %v", res, err)
	}
	return cancel, drainStream(res)
}

// drainStream reads a stream to its end in the background.
func drainStream(res *http.Response) <-chan error {
	ended := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		ended <- err
	}()
	return ended
}

// listenBody is a subscriptions/listen request of protocol 2026-07-28.
func listenBody(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},`+
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"rig","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`, id)
}

// listen opens a subscriptions/listen stream and returns its status.
func listen(t *testing.T, base string, hdr map[string]string) int {
	t.Helper()
	res, _, err := openEvents(t, base, "POST", listenBody(1), merge(map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen"}, hdr))
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode == 200 {
		drainStream(res)
	}
	return res.StatusCode
}

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// waitFor polls cond for up to five seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 500 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal(what)
}

// A session has one GET stream at a time, the newest: a new one is
// welcome once the session's stream is replaceAfter old, and the one it
// replaces ends, its connection closed (the read fails rather than meet
// the stream's end), so one stream is counted. A new one sooner is 409
// and leaves the stream as it is, so that two streams a client holds on
// one session cannot replace each other in turn.
func TestFrontOneGetStreamPerSession(t *testing.T) {
	rig := newRig(t, "", Limits{})
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	rig.front.sessions.now = func() time.Time { return time.Unix(0, clock.Load()) }
	srv := httptest.NewServer(rig.front)
	t.Cleanup(srv.Close)
	sid := map[string]string{server.HeaderKeySessionID: rig.initialize(t, nil)}
	_, ended := openStream(t, srv.URL, sid)
	for range 3 {
		clock.Add(int64(replaceAfter - time.Second))
		res, cancel, err := openEvents(t, srv.URL, "GET", "", sid)
		if err != nil || res.StatusCode != http.StatusConflict {
			t.Fatalf("a GET stream on a session whose stream is %v old: %v %v, want 409", replaceAfter-time.Second, res, err)
		}
		res.Body.Close()
		cancel()
		select {
		case <-ended:
			t.Fatal("a refused GET stream ended the session's stream")
		case <-time.After(100 * time.Millisecond):
		}
		clock.Add(int64(time.Second))
		var next <-chan error
		_, next = openStream(t, srv.URL, sid)
		select {
		case err := <-ended:
			if err == nil {
				t.Fatal("the replaced GET stream ended cleanly: its connection was left open")
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the replaced GET stream is still open")
		}
		ended = next
	}
	waitFor(t, "replaced streams are still counted", func() bool { return rig.front.streams.count() == 1 })
	// Another session has its own.
	openStream(t, srv.URL, map[string]string{server.HeaderKeySessionID: rig.initialize(t, nil)})
	select {
	case <-ended:
		t.Fatal("another session's GET stream ended this one's")
	case <-time.After(200 * time.Millisecond):
	}
}

// Event streams, GET and subscriptions/listen alike, are shared by
// principal as sessions are: one OAuth client holds at most
// principalSessions, OAuth clients together leave the local token's
// clients max/localRoom, and past the cap every new one is 503.
func TestFrontStreamsSharedByPrincipal(t *testing.T) {
	rig := newRig(t, "", Limits{MaxStreams: 32})
	srv := httptest.NewServer(rig.front)
	t.Cleanup(srv.Close)
	rig.oauth.set("oauth-token-of-c2", "c2")
	c1 := map[string]string{"Authorization": "Bearer oauth-good-token-of-client-c1"}
	c2 := map[string]string{"Authorization": "Bearer oauth-token-of-c2"}
	openStream(t, srv.URL, merge(c1, map[string]string{server.HeaderKeySessionID: rig.initialize(t, c1)}))
	for i := range principalSessions - 1 {
		if c := listen(t, srv.URL, c1); c != 200 {
			t.Fatalf("listen stream %d of an OAuth client: %d", i+2, c)
		}
	}
	if c := listen(t, srv.URL, c1); c != 503 {
		t.Fatalf("an OAuth client's stream past its share: %d, want 503", c)
	}
	if res, _, err := openEvents(t, srv.URL, "GET", "", merge(c1, map[string]string{server.HeaderKeySessionID: rig.initialize(t, c1)})); err != nil || res.StatusCode != 503 {
		t.Fatalf("an OAuth client's GET stream past its share: %v %v, want 503", res, err)
	}
	for i := range 32 - 32/localRoom - principalSessions {
		if c := listen(t, srv.URL, c2); c != 200 {
			t.Fatalf("listen stream %d of a second OAuth client: %d", i+1, c)
		}
	}
	if c := listen(t, srv.URL, c2); c != 503 {
		t.Fatalf("OAuth clients' streams past their part: %d, want 503", c)
	}
	for i := range 32 / localRoom {
		if c := listen(t, srv.URL, nil); c != 200 {
			t.Fatalf("the local token's stream %d: %d", i+1, c)
		}
	}
	if c := listen(t, srv.URL, nil); c != 503 {
		t.Fatalf("a stream past the cap: %d, want 503", c)
	}
	if n := rig.front.streams.count(); n != 32 {
		t.Fatalf("%d streams counted, want 32", n)
	}
	// A subscriptions/listen in a batch would hold the batch open,
	// uncounted: it is refused.
	w := rig.do("POST", "/mcp", "["+listenBody(5)+"]", map[string]string{"Mcp-Protocol-Version": "2026-07-28"})
	if !strings.Contains(w.Body.String(), "send it alone") || !strings.Contains(w.Body.String(), `"id":5`) {
		t.Fatalf("a listen in a batch: %d %s", w.Code, w.Body)
	}
}

// A listen stream has no session, so it is checked itself: once the
// OAuth token it was opened with is revoked, it ends at the next check.
func TestFrontRevokedClientsListenStreamsEnd(t *testing.T) {
	rig := newRig(t, "", Limits{})
	srv := httptest.NewServer(rig.front)
	t.Cleanup(srv.Close)
	const tok = "oauth-good-token-of-client-c1"
	res, _, err := openEvents(t, srv.URL, "POST", listenBody(1), map[string]string{"Authorization": "Bearer " + tok, "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen"})
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("listen: %v %v", res, err)
	}
	ended := drainStream(res)
	if listen(t, srv.URL, nil) != 200 {
		t.Fatal("the local token's listen stream")
	}
	rig.front.endRevoked()
	select {
	case <-ended:
		t.Fatal("the listen stream of a valid token ended")
	case <-time.After(200 * time.Millisecond):
	}
	rig.oauth.set(tok, "")
	rig.front.endRevoked()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the revoked client's listen stream is still open")
	}
	waitFor(t, "the local listen stream ended too", func() bool { return rig.front.streams.count() == 1 })
}
