package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/sdk/abi"
)

const testToken = "juju_test-token-0123456789abcdefghijklmnopqrstuvwxyz"

// testRig is the front around a bare mcp-go server with one tool, touch,
// which counts its calls.
type testRig struct {
	front   *front
	touched atomic.Int64
	oauth   *fakeOAuth
}

func newRig(t testing.TB, public string, lim Limits) *testRig {
	rig := &testRig{oauth: &fakeOAuth{tokens: map[string]string{"oauth-good-token-of-client-c1": "c1"}}}
	m := server.NewMCPServer("t", "1", server.WithToolCapabilities(true)) // listChanged: a listen stream stays open
	m.AddTool(mcp.NewTool("touch"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rig.touched.Add(1)
		return mcp.NewToolResultText("touched by " + clientName(ctx)), nil
	})
	var pub *url.URL
	if public != "" {
		pub, _ = url.Parse(public)
	}
	lim = lim.withDefaults()
	sess := newSessions(lim.MaxSessions, lim.SessionIdle)
	inner := server.NewStreamableHTTPServer(m, server.WithSessionIdManagerResolver(sess), server.WithDisableLocalhostProtection(true))
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 7777}
	rig.front = newFront(HTTPConfig{Token: testToken, OAuth: rig.oauth, PublicURL: pub, Limits: lim}, addr, sess, inner)
	return rig
}

// fakeOAuth owns /oauth-test and knows a set of access tokens.
type fakeOAuth struct {
	mu     sync.Mutex
	tokens map[string]string
}

func (f *fakeOAuth) Owns(path string) bool { return path == "/oauth-test" }
func (f *fakeOAuth) ServeOAuth(w http.ResponseWriter, r *http.Request, base string) {
	w.Write([]byte("issuer " + base))
}
func (f *fakeOAuth) Verify(tok, resource string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.tokens[tok]
	return c, ok && resource == "http://127.0.0.1:7777/mcp"
}
func (f *fakeOAuth) Valid(tok, resource string) bool {
	_, ok := f.Verify(tok, resource)
	return ok
}

func (f *fakeOAuth) Live(client string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.tokens {
		if c == client {
			return true
		}
	}
	return false
}

// set gives a token to a client, or revokes it ("").
func (f *fakeOAuth) set(tok, client string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if client == "" {
		delete(f.tokens, tok)
		return
	}
	f.tokens[tok] = client
}

// do sends one request through the front.
func (rig *testRig) do(method, target, body string, hdr map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	r.Host = "127.0.0.1:7777"
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("Authorization", "Bearer "+testToken)
	for k, v := range hdr {
		if k == "Host" {
			r.Host = v
			continue
		}
		if v == "" {
			r.Header.Del(k)
			continue
		}
		r.Header.Set(k, v)
	}
	if method == "GET" {
		// A GET that opens the event stream lasts until its context ends.
		ctx, cancel := context.WithTimeout(r.Context(), 100*time.Millisecond)
		defer cancel()
		r = r.WithContext(ctx)
	}
	w := httptest.NewRecorder()
	rig.front.ServeHTTP(w, r)
	return w
}

const (
	initBody  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"rig","version":"1"}}}`
	touchBody = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"touch","arguments":{}}}`
)

// initialize opens a session with the given headers and returns its id.
func (rig *testRig) initialize(t *testing.T, hdr map[string]string) string {
	t.Helper()
	w := rig.do("POST", "/mcp", initBody, hdr)
	id := w.Header().Get(server.HeaderKeySessionID)
	if w.Code != 200 || !strings.HasPrefix(id, sessionPrefix) {
		t.Fatalf("initialize: %d %q %s", w.Code, id, w.Body)
	}
	return id
}

func TestFrontHostAndOrigin(t *testing.T) {
	rig := newRig(t, "https://tunnel.example", Limits{})
	tests := []struct {
		host, origin string
		want         int
	}{
		{"127.0.0.1:7777", "", 200},
		{"localhost:7777", "", 200},
		{"LOCALHOST:7777", "", 200},
		{"[::1]:7777", "", 200},
		{"127.0.0.2:7777", "", 200},
		{"tunnel.example", "", 200},
		{"tunnel.example:443", "", 200},
		{"127.0.0.1:7777", "http://127.0.0.1:7777", 200},
		{"127.0.0.1:7777", "http://localhost:7777", 200},
		{"tunnel.example", "https://tunnel.example", 200},
		{"127.0.0.1:7778", "", 403},
		{"127.0.0.1", "", 403},
		{"localhost", "", 403},
		{"localhost.:7777", "", 403},
		{"evil.example", "", 403},
		{"evil.example:7777", "", 403},
		{"127.0.0.1.evil.example:7777", "", 403},
		{"localhost.evil.example:7777", "", 403},
		{"tunnel.example.evil.example", "", 403},
		{"tunnel.example:8443", "", 403},
		{"[fe80::1%25eth0]:7777", "", 403},
		{"0.0.0.0:7777", "", 403},
		{"192.168.1.5:7777", "", 403},
		{"", "", 403},
		{"127.0.0.1:7777", "https://evil.example", 403},
		{"127.0.0.1:7777", "null", 403},
		{"127.0.0.1:7777", "http://127.0.0.1.evil.example:7777", 403},
		{"127.0.0.1:7777", "https://127.0.0.1:7777", 403},
		{"127.0.0.1:7777", "http://127.0.0.1:7777/path", 403},
		{"127.0.0.1:7777", "http://tunnel.example", 403},
		{"127.0.0.1:7777", "", 200},
		{"tunnel.example", "http://evil.example", 403},
	}
	for _, tt := range tests {
		t.Run(tt.host+" "+tt.origin, func(t *testing.T) {
			before := rig.touched.Load()
			w := rig.do("POST", "/mcp", initBody, map[string]string{"Host": tt.host, "Origin": tt.origin})
			if w.Code != tt.want {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.want, w.Body)
			}
			if rig.touched.Load() != before {
				t.Fatal("a tool ran")
			}
		})
	}
}

func TestFrontAuth(t *testing.T) {
	rig := newRig(t, "", Limits{})
	tests := []struct {
		name, auth string
		want       int
	}{
		{"local token", "Bearer " + testToken, 200},
		{"scheme in lower case", "bearer " + testToken, 200},
		{"oauth token", "Bearer oauth-good-token-of-client-c1", 200},
		{"none", "", 401},
		{"empty bearer", "Bearer ", 401},
		{"basic", "Basic " + testToken, 401},
		{"token alone", testToken, 401},
		{"one character short", "Bearer " + testToken[:len(testToken)-1], 401},
		{"one character more", "Bearer " + testToken + "x", 401},
		{"last character changed", "Bearer " + testToken[:len(testToken)-1] + "Z", 401},
		{"case changed", "Bearer " + strings.ToUpper(testToken), 401},
		{"two spaces", "Bearer  " + testToken, 401},
		{"trailing junk", "Bearer " + testToken + " x", 401},
		{"unknown oauth token", "Bearer oauth-bad-token", 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := rig.do("POST", "/mcp", initBody, map[string]string{"Authorization": tt.auth})
			if w.Code != tt.want {
				t.Fatalf("status %d, want %d", w.Code, tt.want)
			}
			if tt.want == 401 {
				ch := w.Header().Get("WWW-Authenticate")
				if !strings.HasPrefix(ch, `Bearer resource_metadata="http://127.0.0.1:7777/.well-known/oauth-protected-resource"`) {
					t.Fatalf("challenge %q", ch)
				}
				if strings.Contains(w.Body.String(), testToken[5:20]) {
					t.Fatal("the answer repeats the token")
				}
			}
		})
	}
	// A token in the query string is never read.
	w := rig.do("POST", "/mcp?access_token="+testToken+"&token="+testToken, initBody, map[string]string{"Authorization": ""})
	if w.Code != 401 {
		t.Fatalf("token in the query: %d", w.Code)
	}
	// Two Authorization headers are refused even when one is right.
	r := httptest.NewRequest("POST", "/mcp", strings.NewReader(initBody))
	r.Host = "127.0.0.1:7777"
	r.Header.Set("Content-Type", "application/json")
	r.Header.Add("Authorization", "Bearer "+testToken)
	r.Header.Add("Authorization", "Bearer x")
	rec := httptest.NewRecorder()
	rig.front.ServeHTTP(rec, r)
	if rec.Code != 401 {
		t.Fatalf("two Authorization headers: %d", rec.Code)
	}
}

func TestFrontSessions(t *testing.T) {
	rig := newRig(t, "", Limits{})
	id := rig.initialize(t, nil)
	call := func(hdr map[string]string) int {
		return rig.do("POST", "/mcp", touchBody, hdr).Code
	}
	if c := call(map[string]string{server.HeaderKeySessionID: id}); c != 200 || rig.touched.Load() != 1 {
		t.Fatalf("call in the session: %d, touched %d", c, rig.touched.Load())
	}
	altered := id[:len(id)-1] + string("AB"[strings.IndexByte("AB", id[len(id)-1])+1&1])
	for name, hdr := range map[string]map[string]string{
		"forged":      {server.HeaderKeySessionID: "juju-" + strings.Repeat("A", 43)},
		"altered":     {server.HeaderKeySessionID: altered},
		"mcp-go form": {server.HeaderKeySessionID: "mcp-session-6f1c3c5e-8a53-4b1e-9d0e-3f1b2c3d4e5f"},
		"other owner": {server.HeaderKeySessionID: id, "Authorization": "Bearer oauth-good-token-of-client-c1"},
	} {
		if c := call(hdr); c != 404 {
			t.Errorf("%s session id: %d, want 404", name, c)
		}
		// Nor may it open the session's GET stream or end the session.
		for _, method := range []string{"GET", "DELETE"} {
			if c := rig.do(method, "/mcp", "", hdr).Code; c != 404 {
				t.Errorf("%s with the %s session id: %d, want 404", method, name, c)
			}
		}
	}
	if c := call(map[string]string{server.HeaderKeySessionID: id}); c != 200 || rig.touched.Load() != 2 {
		t.Fatalf("the session after others named it: %d, touched %d", c, rig.touched.Load())
	}
	if c := call(nil); c != 400 {
		t.Errorf("no session id: %d, want 400", c)
	}
	if c := rig.do("GET", "/mcp", "", nil).Code; c != 400 {
		t.Errorf("GET without a session: %d, want 400", c)
	}
	if c := rig.do("GET", "/mcp", "", map[string]string{server.HeaderKeySessionID: "juju-nope"}).Code; c != 404 {
		t.Errorf("GET of an unknown session: %d, want 404", c)
	}
	if rig.touched.Load() != 2 {
		t.Fatalf("refused calls ran: touched %d", rig.touched.Load())
	}
	if c := rig.do("DELETE", "/mcp", "", map[string]string{server.HeaderKeySessionID: id}).Code; c != 200 {
		t.Fatalf("DELETE: %d", c)
	}
	if c := call(map[string]string{server.HeaderKeySessionID: id}); c != 404 {
		t.Fatalf("call after DELETE: %d, want 404", c)
	}
	if n := rig.front.sessions.count(); n != 0 {
		t.Fatalf("%d sessions left", n)
	}
}

func TestFrontSessionCap(t *testing.T) {
	rig := newRig(t, "", Limits{MaxSessions: 3, SessionIdle: time.Minute})
	now := time.Now()
	rig.front.sessions.now = func() time.Time { return now }
	var ids []string
	for range 3 {
		ids = append(ids, rig.initialize(t, nil))
	}
	if c := rig.do("POST", "/mcp", initBody, nil).Code; c != 503 {
		t.Fatalf("past the cap: %d, want 503", c)
	}
	now = now.Add(2 * time.Minute)
	rig.do("POST", "/mcp", touchBody, map[string]string{server.HeaderKeySessionID: ids[1]})
	rig.do("POST", "/mcp", touchBody, map[string]string{server.HeaderKeySessionID: ids[2]})
	rig.initialize(t, nil) // ids[0], idle two minutes, makes room
	if c := rig.do("POST", "/mcp", touchBody, map[string]string{server.HeaderKeySessionID: ids[0]}).Code; c != 404 {
		t.Fatalf("the evicted session: %d, want 404", c)
	}
	if c := rig.do("POST", "/mcp", touchBody, map[string]string{server.HeaderKeySessionID: ids[1]}).Code; c != 200 {
		t.Fatalf("a used session was evicted: %d", c)
	}
}

// An initialize whose client hangs up before the answer leaves no session
// behind: mcp-go made one, but nobody was given it. Left in the table, such
// sessions, in no principal's share, filled it for everyone (503 to the
// owner's local clients), however few sessions the client was allowed.
func TestFrontHungUpInitializeLeavesNoSession(t *testing.T) {
	rig := newRig(t, "", Limits{MaxSessions: 4})
	hs := newHandshakes()
	m := server.NewMCPServer("t", "1", server.WithHooks(hs.hooks()))
	inner := server.NewStreamableHTTPServer(m, server.WithSessionIdManagerResolver(rig.front.sessions), server.WithDisableLocalhostProtection(true))
	rig.front.mcp, rig.front.forget = inner, hs.forget
	for range 10 {
		r := httptest.NewRequest("POST", "/mcp", strings.NewReader(initBody))
		r.Host = "127.0.0.1:7777"
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("Authorization", "Bearer oauth-good-token-of-client-c1")
		ctx, cancel := context.WithCancel(r.Context())
		cancel() // the client is gone before mcp-go writes the answer
		w := httptest.NewRecorder()
		rig.front.ServeHTTP(w, r.WithContext(ctx))
		if id := w.Header().Get(server.HeaderKeySessionID); id != "" {
			t.Fatalf("an initialize whose client hung up was answered with session %q", id)
		}
	}
	if n := rig.front.sessions.count(); n != 0 {
		t.Fatalf("%d sessions left by initialize requests whose client hung up", n)
	}
	if n := len(hs.done); n != 0 {
		t.Fatalf("%d handshakes kept of sessions whose initialize was never answered", n)
	}
	for range 4 {
		rig.initialize(t, nil)
	}
}

// One OAuth client opens at most principalSessions sessions, and OAuth
// clients together leave the local token's clients an eighth of the cap:
// the owner's initialize is never refused for them.
func TestFrontSessionsPerPrincipal(t *testing.T) {
	rig := newRig(t, "", Limits{MaxSessions: 32, SessionIdle: time.Minute})
	bearer := func(tok string) map[string]string { return map[string]string{"Authorization": "Bearer " + tok} }
	rig.oauth.set("oauth-token-of-c2", "c2")
	var first string
	for i := range principalSessions {
		id := rig.initialize(t, bearer("oauth-good-token-of-client-c1"))
		if i == 0 {
			first = id
		}
	}
	if c := rig.do("POST", "/mcp", initBody, bearer("oauth-good-token-of-client-c1")).Code; c != 503 {
		t.Fatalf("an OAuth client past its sessions: %d, want 503", c)
	}
	for range 32 - 32/localRoom - principalSessions {
		rig.initialize(t, bearer("oauth-token-of-c2"))
	}
	if c := rig.do("POST", "/mcp", initBody, bearer("oauth-token-of-c2")).Code; c != 503 {
		t.Fatalf("OAuth clients past their part of the table: %d, want 503", c)
	}
	for range 32 / localRoom {
		rig.initialize(t, nil)
	}
	// Full: an OAuth client's idle session makes room for its own new one.
	now := time.Now().Add(2 * time.Minute)
	rig.front.sessions.now = func() time.Time { return now }
	rig.initialize(t, bearer("oauth-good-token-of-client-c1"))
	if c := rig.do("POST", "/mcp", touchBody, map[string]string{server.HeaderKeySessionID: first, "Authorization": "Bearer oauth-good-token-of-client-c1"}).Code; c != 404 {
		t.Fatalf("the OAuth client's idle session: %d, want 404 (evicted)", c)
	}
}

// A session, and its GET stream, end once the OAuth token it last
// presented is revoked or expires, at the next check (endRevoked); the
// local token's sessions and other clients' stay.
func TestFrontRevokedClientsSessionsEnd(t *testing.T) {
	rig := newRig(t, "", Limits{})
	srv := httptest.NewServer(rig.front)
	defer srv.Close()
	const tok = "oauth-good-token-of-client-c1"
	id := rig.initialize(t, map[string]string{"Authorization": "Bearer " + tok})
	local := rig.initialize(t, nil)
	rig.do("POST", "/mcp", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, map[string]string{server.HeaderKeySessionID: id, "Authorization": "Bearer " + tok})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // before srv.Close, which waits for the stream
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/mcp", nil)
	req.Host = "127.0.0.1:7777"
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set(server.HeaderKeySessionID, id)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET stream: %v %v", res, err)
	}
	ended := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, res.Body)
		ended <- err
	}()
	rig.front.endRevoked()
	select {
	case <-ended:
		t.Fatal("the stream of a valid token ended")
	case <-time.After(200 * time.Millisecond):
	}
	rig.oauth.set(tok, "")
	rig.front.endRevoked()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the revoked client's GET stream is still open")
	}
	rig.oauth.set(tok, "c1") // even with its token back, the session is gone
	if c := rig.do("POST", "/mcp", touchBody, map[string]string{server.HeaderKeySessionID: id, "Authorization": "Bearer " + tok}).Code; c != 404 {
		t.Fatalf("the revoked client's session: %d, want 404", c)
	}
	if c := rig.do("POST", "/mcp", touchBody, map[string]string{server.HeaderKeySessionID: local}).Code; c != 200 {
		t.Fatalf("the local session: %d", c)
	}
	if n := rig.front.sessions.count(); n != 1 {
		t.Fatalf("%d sessions left, want the local one", n)
	}
}

// A tool call over the body limit leaves its session the credential it
// came with: once that token is revoked, the session and its GET stream
// end at the next check as any other's. (tooLarge once cleared it, and a
// session without a token was never checked again.)
func TestFrontRevokedAfterTooLargeBody(t *testing.T) {
	rig := newRig(t, "", Limits{MaxBody: 1 << 10})
	srv := httptest.NewServer(rig.front)
	t.Cleanup(srv.Close)
	const tok = "oauth-good-token-of-client-c1"
	hdr := map[string]string{"Authorization": "Bearer " + tok}
	hdr[server.HeaderKeySessionID] = rig.initialize(t, hdr)
	_, ended := openStream(t, srv.URL, hdr)
	big := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"touch","arguments":{"x":"` + strings.Repeat("a", 2<<10) + `"}}}`
	if w := rig.do("POST", "/mcp", big, hdr); w.Code != 200 || !strings.Contains(w.Body.String(), "TOO_LARGE") {
		t.Fatalf("a tool call over the body limit: %d %s", w.Code, w.Body)
	}
	rig.oauth.set(tok, "")
	rig.front.endRevoked()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the revoked client's GET stream outlived the check, after a body over the limit")
	}
}

// An OAuth client's session that holds no token, whatever lost it, counts
// as revoked: the check fails closed.
func TestSessionsWithoutATokenAreUnauthorized(t *testing.T) {
	s := newSessions(8, time.Minute)
	oauth, local, unbound := s.Generate(), s.Generate(), s.Generate()
	s.bind(oauth, "oauth:c1", credential{})
	s.bind(local, localPrincipal, credential{})
	got := s.unauthorized(func(credential) bool { return true })
	if len(got) != 1 || got[0] != oauth {
		t.Fatalf("unauthorized = %q, want only the OAuth session without a token %q (local %q, unbound %q)", got, oauth, local, unbound)
	}
}

func TestFrontBodies(t *testing.T) {
	rig := newRig(t, "", Limits{MaxBody: 1 << 10})
	id := rig.initialize(t, nil)
	sid := map[string]string{server.HeaderKeySessionID: id}
	var refused []string
	rig.front.refused = func(ctx context.Context, tool string, _ any, code abi.Code) {
		refused = append(refused, tool+" "+string(code)+" by "+principalOf(ctx))
	}
	big := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"touch","arguments":{"x":"` + strings.Repeat("a", 2<<10) + `"}}}`
	w := rig.do("POST", "/mcp", big, sid)
	var res struct {
		ID     int                `json:"id"`
		Result mcp.CallToolResult `json:"result"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &res); w.Code != 200 || err != nil || res.ID != 3 || !res.Result.IsError ||
		!strings.Contains(res.Result.Content[0].(mcp.TextContent).Text, "TOO_LARGE: this call to touch was larger than 1024 bytes") {
		t.Fatalf("a tool call over the body limit: %d %s", w.Code, w.Body)
	}
	if len(refused) != 1 || refused[0] != "touch TOO_LARGE by "+localPrincipal {
		t.Errorf("the refused call was audited as %q", refused)
	}
	if rig.touched.Load() != 0 {
		t.Error("a tool call over the body limit ran")
	}
	for name, c := range map[string]struct {
		body string
		hdr  map[string]string
		code int
	}{
		"a notification":       {`{"jsonrpc":"2.0","method":"notifications/x","params":{"p":"` + strings.Repeat("a", 2<<10) + `"}}`, sid, 413},
		"no JSON":              {strings.Repeat("a", 2<<10), sid, 413},
		"past the drain limit": {`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"touch","arguments":{"x":"` + strings.Repeat("a", minDrain) + `"}}}`, sid, 413},
		"an unknown session":   {big, map[string]string{server.HeaderKeySessionID: "mcp-session-nope"}, 404},
		"no session":           {big, nil, 400},
	} {
		if w := rig.do("POST", "/mcp", c.body, c.hdr); w.Code != c.code {
			t.Errorf("%s: %d %.200s, want %d", name, w.Code, w.Body, c.code)
		}
	}
	if len(refused) != 1 || rig.touched.Load() != 0 {
		t.Errorf("a refused body was audited (%q) or ran", refused)
	}
	for _, id := range []string{`{"a":1}`, `[3]`, `true`, `null`} {
		w := rig.do("POST", "/mcp", `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"touch"}}`, sid)
		var msg mcp.JSONRPCError
		if err := json.Unmarshal(w.Body.Bytes(), &msg); err != nil || msg.Error.Code != mcp.INVALID_REQUEST || msg.ID.Value() != nil {
			t.Errorf("a tool call with id %s: %d %s", id, w.Code, w.Body)
		}
	}
	if rig.touched.Load() != 0 {
		t.Error("a tool call with an id neither a string nor a number ran")
	}
	for _, body := range []string{"{", "[]", `[{"jsonrpc":"2.0"}]`, "null", `"x"`, `{"jsonrpc":"2.0","id":{},"method":5}`, "\x00\xff", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":7}`} {
		w := rig.do("POST", "/mcp", body, sid)
		if w.Code >= 500 {
			t.Errorf("%q: %d %s", body, w.Code, w.Body)
		}
	}
	w = rig.do("POST", "/mcp", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`, sid)
	var msg mcp.JSONRPCError
	if err := json.Unmarshal(w.Body.Bytes(), &msg); err != nil || msg.Error.Code != mcp.INVALID_PARAMS {
		t.Fatalf("an unknown tool over HTTP: %s", w.Body)
	}
	if c := rig.do("PUT", "/mcp", "{}", sid).Code; c != 405 {
		t.Fatalf("PUT: %d", c)
	}
	if c := rig.do("GET", "/other", "", nil).Code; c != 404 {
		t.Fatalf("unknown path: %d", c)
	}
	if w := rig.do("GET", "/oauth-test", "", map[string]string{"Authorization": ""}); w.Code != 200 || w.Body.String() != "issuer http://127.0.0.1:7777" {
		t.Fatalf("oauth route: %d %s", w.Code, w.Body)
	}
}

func TestFrontNamesOAuthClients(t *testing.T) {
	rig := newRig(t, "", Limits{})
	hdr := map[string]string{"Authorization": "Bearer oauth-good-token-of-client-c1"}
	id := rig.initialize(t, hdr)
	hdr[server.HeaderKeySessionID] = id
	w := rig.do("POST", "/mcp", touchBody, hdr)
	if !strings.Contains(w.Body.String(), "touched by rig [oauth:c1]") {
		t.Fatalf("client name: %s", w.Body)
	}
}

// A tunnel that rewrites the Host to juju's address names the host the
// client reached in X-Forwarded-Host: forwarded for the public URL's host,
// the request sees the public URL as the issuer and its challenge names
// the public metadata, the URLs the client can reach; forwarded for any
// host the Host itself could not name, it is refused as that Host would
// be. The scheme is --public-url's whatever X-Forwarded-Proto says.
func TestFrontForwardedHost(t *testing.T) {
	rig := newRig(t, "https://tunnel.example", Limits{})
	noToken := map[string]string{"Authorization": ""}
	for _, tt := range []struct {
		host, fwd, proto string
		want             int
		issuer           string
	}{
		{"127.0.0.1:7777", "tunnel.example", "https", 200, "https://tunnel.example"},
		{"127.0.0.1:7777", "tunnel.example:443", "", 200, "https://tunnel.example"},
		{"localhost:7777", "TUNNEL.example", "http", 200, "https://tunnel.example"},
		{"tunnel.example", "tunnel.example", "https", 200, "https://tunnel.example"},
		{"127.0.0.1:7777", "127.0.0.1:7777", "", 200, "http://127.0.0.1:7777"},
		{"127.0.0.1:7777", "evil.example", "https", 403, ""},
		{"127.0.0.1:7777", "tunnel.example.evil.example", "", 403, ""},
		{"127.0.0.1:7777", "tunnel.example, evil.example", "", 403, ""},
		{"127.0.0.1:7777", "evil.example, tunnel.example", "", 403, ""},
		{"127.0.0.1:7777", "tunnel.example:8443", "", 403, ""},
		{"127.0.0.1:7777", "", "", 403, ""},
		{"evil.example", "tunnel.example", "https", 403, ""},
	} {
		hdr := map[string]string{"Host": tt.host, "X-Forwarded-Proto": tt.proto}
		r := httptest.NewRequest("GET", "/oauth-test", nil)
		r.Host = tt.host
		r.Header["X-Forwarded-Host"] = []string{tt.fwd}
		if tt.proto != "" {
			r.Header.Set("X-Forwarded-Proto", tt.proto)
		}
		w := httptest.NewRecorder()
		rig.front.ServeHTTP(w, r)
		if w.Code != tt.want || tt.want == 200 && w.Body.String() != "issuer "+tt.issuer {
			t.Errorf("Host %q, X-Forwarded-Host %q: %d %q, want %d, issuer %s", tt.host, tt.fwd, w.Code, w.Body, tt.want, tt.issuer)
		}
		if tt.want != 200 {
			continue
		}
		hdr["X-Forwarded-Host"] = tt.fwd
		w = rig.do("POST", "/mcp", initBody, merge(hdr, noToken))
		want := `Bearer resource_metadata="` + tt.issuer + `/.well-known/oauth-protected-resource"`
		if w.Code != 401 || w.Header().Get("WWW-Authenticate") != want {
			t.Errorf("Host %q, X-Forwarded-Host %q, no token: %d %q, want 401 %q", tt.host, tt.fwd, w.Code, w.Header().Get("WWW-Authenticate"), want)
		}
	}
	// Two X-Forwarded-Host headers are refused, even when both name the
	// public host.
	r := httptest.NewRequest("GET", "/oauth-test", nil)
	r.Host = "127.0.0.1:7777"
	r.Header["X-Forwarded-Host"] = []string{"tunnel.example", "tunnel.example"}
	w := httptest.NewRecorder()
	rig.front.ServeHTTP(w, r)
	if w.Code != 403 {
		t.Errorf("two X-Forwarded-Host headers: %d", w.Code)
	}
	// Without --public-url, a request forwarded for a tunnel's name is
	// refused (and the owner told to restart with it), where it once got
	// loopback URLs the client could not reach.
	local := newRig(t, "", Limits{})
	w = local.do("POST", "/mcp", initBody, map[string]string{"X-Forwarded-Host": "tunnel.example", "Authorization": ""})
	if w.Code != 403 {
		t.Errorf("no --public-url, forwarded for a tunnel: %d %q", w.Code, w.Header().Get("WWW-Authenticate"))
	}
}
