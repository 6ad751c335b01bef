package mcpserver

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// The requests in flight of one OAuth client, and of OAuth clients
// together, are bounded by their shares of the connections (busy): a tool
// call past a share is a TOO_LARGE result, while
// notifications and responses, and the owner's local clients, are served
// whatever the OAuth clients hold.
func TestBusyShares(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 64)
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
		w.WriteHeader(http.StatusAccepted)
	})
	lim := Limits{MaxConns: 16}.withDefaults() // a share of 2; OAuth clients together 14
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 7777}
	oauth := &fakeOAuth{tokens: map[string]string{}}
	for i := range 8 {
		oauth.set(fmt.Sprintf("oauth-good-token-of-client-%d", i), fmt.Sprintf("c%d", i))
	}
	f := newFront(HTTPConfig{Token: testToken, OAuth: oauth, Limits: lim}, addr, newSessions(lim.MaxSessions, lim.SessionIdle), inner)
	send := func(tok, body string) *httptest.ResponseRecorder { return postStateless(f, tok, body) }
	// refused sends a request that must be answered without being served.
	refused := func(tok, body string) *httptest.ResponseRecorder {
		t.Helper()
		got := make(chan *httptest.ResponseRecorder, 1)
		go func() { got <- send(tok, body) }()
		select {
		case w := <-got:
			return w
		case <-entered:
			t.Fatal("a request past a share was served")
		}
		return nil
	}
	call := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"job_wait","arguments":{"jobId":"j1"}}}`, id)
	}
	var wg sync.WaitGroup
	hold := func(tok string, n int) {
		for i := range n {
			wg.Add(1)
			go func() { defer wg.Done(); send(tok, call(i)) }()
		}
		for range n {
			<-entered
		}
	}
	defer func() { close(release); wg.Wait() }()

	hold("oauth-good-token-of-client-0", 2)
	w := refused("oauth-good-token-of-client-0", call(3))
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"isError":true`) ||
		!strings.Contains(w.Body.String(), `"id":3`) || !strings.Contains(w.Body.String(), "TOO_LARGE: this client has 2 requests in flight") ||
		!strings.Contains(w.Body.String(), "call to job_wait did not run") {
		t.Fatalf("a call past the client's share: %d %s", w.Code, w.Body)
	}
	// A notification is served: it is answered at once, and a client at
	// its share needs it to cancel a call.
	wg.Add(1)
	go func() {
		defer wg.Done()
		send("oauth-good-token-of-client-0", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	}()
	<-entered
	// Other OAuth clients take their shares, until together they leave the
	// owner a share: 14 in all.
	for i := 1; i < 7; i++ {
		hold(fmt.Sprintf("oauth-good-token-of-client-%d", i), 2)
	}
	if w := refused("oauth-good-token-of-client-7", call(1)); !strings.Contains(w.Body.String(), "TOO_LARGE") {
		t.Fatalf("a call past the OAuth clients' room: %d %s", w.Code, w.Body)
	}
	// The owner's local clients are served.
	done := make(chan struct{})
	go func() {
		defer close(done)
		hold(testToken, 20)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the owner's calls were not served")
	}
	f.busy.mu.Lock()
	n := f.busy.others
	f.busy.mu.Unlock()
	if n != 14 {
		t.Fatalf("%d OAuth requests counted in flight, want 14", n)
	}
}

// postStateless has f serve a stateless (2026-07-28) POST of body to /mcp
// from loopback, with the bearer token tok.
func postStateless(f *front, tok, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", "/mcp", strings.NewReader(body))
	r.Host = "127.0.0.1:7777"
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("Authorization", "Bearer "+tok)
	r.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	w := httptest.NewRecorder()
	f.ServeHTTP(w, r)
	return w
}
