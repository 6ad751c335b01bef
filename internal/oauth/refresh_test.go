package oauth

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/filelock"
)

// refreshForm is a refresh token request of client.
func refreshForm(client, rt string) url.Values {
	return url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {rt}, "resource": {testBase + "/mcp"}}
}

// refreshOK refreshes and returns the new access and refresh tokens.
func (r *rig) refreshOK(client, rt string) (string, string) {
	r.t.Helper()
	status, out := r.token(refreshForm(client, rt))
	at, _ := out["access_token"].(string)
	next, _ := out["refresh_token"].(string)
	if status != 200 || at == "" || next == "" {
		r.t.Fatalf("refresh: %d %v", status, out)
	}
	return at, next
}

// A grant keeps its last maxAccess access tokens, the newest working and
// the older ones not: refreshing in a loop grows neither the grant nor
// the store.
func TestRefreshKeepsTheLastAccessTokens(t *testing.T) {
	r := newRig(t)
	client := r.register(testRedirect)
	at, rt := r.tokens(client)
	issued := []string{at}
	size := func() int64 {
		st, err := os.Stat(filepath.Join(r.dir, storeFile))
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	var early int64
	for i := range 100 {
		r.advance(7 * time.Second) // within the rate
		at, rt = r.refreshOK(client, rt)
		issued = append(issued, at)
		if i == maxRetired+maxAccess {
			early = size()
		}
	}
	for i, tok := range issued {
		_, ok := r.s.Verify(tok, testBase+"/mcp")
		if want := i >= len(issued)-maxAccess; ok != want {
			t.Errorf("access token %d of %d accepted: %v, want %v", i+1, len(issued), ok, want)
		}
	}
	d, err := r.s.store.current()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(d.Grants[0].Access); n != maxAccess {
		t.Errorf("the grant keeps %d access tokens, want %d", n, maxAccess)
	}
	// The retired refresh tokens are bounded too (maxRetired): past both
	// bounds the store stops growing.
	if late := size(); late > early+64 {
		t.Errorf("the store grew from %d to %d bytes over its last %d refreshes", early, late, 99-maxRetired-maxAccess)
	}
}

// One client refreshes at most refreshesPerMinute times a minute: the next
// is 429 temporarily_unavailable with Retry-After, its refresh token still
// good a minute later. Another client is not slowed, and requests that
// name a client without its refresh token never count against it.
func TestRefreshRateIsPerClient(t *testing.T) {
	r := newRig(t)
	client, other := r.register(testRedirect), r.register(testRedirect)
	_, rt := r.tokens(client)
	_, ort := r.tokens(other)
	for range 3 * refreshesPerMinute {
		if status, out := r.token(refreshForm(client, "jjr_forged")); status != 400 || out["error"] != "invalid_grant" {
			t.Fatalf("a forged refresh token: %d %v", status, out)
		}
	}
	for range refreshesPerMinute {
		_, rt = r.refreshOK(client, rt)
	}
	w := r.do("POST", PathToken, refreshForm(client, rt).Encode(), nil)
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" {
		t.Fatalf("a refresh past the rate: %d %s (Retry-After %q)", w.Code, w.Body, w.Header().Get("Retry-After"))
	}
	if status, out := r.token(refreshForm(client, rt)); out["error"] != errTemporarily || out["error_description"] == "" {
		t.Fatalf("a refresh past the rate: %d %v, want %s with a description", status, out, errTemporarily)
	}
	_, ort = r.refreshOK(other, ort)
	r.advance(time.Minute)
	r.refreshOK(client, rt) // the refused refresh left its token valid
}

// A client is live while it holds a grant usable now; revoked, its grants
// dropped by a refresh token presented twice, or its refresh token expired,
// it is not (what juju serve kills a client's background jobs by).
func TestLive(t *testing.T) {
	r := newRig(t)
	a, b, c := r.register(testRedirect), r.register(testRedirect), r.register(testRedirect)
	if r.s.Live(a) {
		t.Fatal("a client granted nothing is live")
	}
	r.tokens(a)
	_, rtB := r.tokens(b)
	r.tokens(c)
	if !r.s.Live(a) || !r.s.Live(b) || !r.s.Live(c) {
		t.Fatal("a granted client is not live")
	}
	if err := OpenStore(r.dir).Revoke(a); err != nil {
		t.Fatal(err)
	}
	r.refreshOK(b, rtB)
	if status, _ := r.token(refreshForm(b, rtB)); status != 400 {
		t.Fatalf("a rotated refresh token presented again: %d", status)
	}
	if r.s.Live(a) || r.s.Live(b) || !r.s.Live(c) {
		t.Fatalf("live after revoke and reuse: %v %v, and the other client: %v", r.s.Live(a), r.s.Live(b), r.s.Live(c))
	}
	r.advance(RefreshTTL + time.Minute)
	if r.s.Live(c) {
		t.Fatal("a client whose refresh token expired is live")
	}
}

// A refresh token the store has never held is refused from the store as
// last read, without its lock: the token endpoint is open to anyone who
// reaches a tunnel, and each made-up token once took the lock and decoded
// the whole store, so a flood of them held up juju clients revoke and the
// clients' real refreshes. Here the lock is held throughout (as a slow
// revoke would), and the made-up token is still answered; a real one
// waits its turn and works once the lock is free.
func TestUnknownRefreshTokenTakesNoLock(t *testing.T) {
	r := newRig(t)
	client := r.register(testRedirect)
	_, rt := r.tokens(client)
	unlock, err := filelock.Lock(filepath.Join(r.dir, lockName))
	if err != nil {
		t.Fatal(err)
	}
	released := false
	release := func() {
		if !released {
			released = true
			unlock()
		}
	}
	defer release()
	answered := make(chan int, 1)
	go func() {
		status, _ := r.token(refreshForm(client, "jjr_"+strings.Repeat("A", 43)))
		answered <- status
	}()
	select {
	case status := <-answered:
		if status != http.StatusBadRequest {
			t.Errorf("a made-up refresh token: %d, want 400", status)
		}
	case <-time.After(20 * time.Second):
		release()
		<-answered
		t.Fatal("a made-up refresh token waited for the store's lock")
	}
	release()
	r.refreshOK(client, rt)
}
