package test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/filelock"
)

// A client refreshing in a loop is slowed down: ten refreshes a minute
// pass, the next is 429 temporarily_unavailable with Retry-After, and
// the refresh token it carried is not used up by the refusal.
func TestServeRefreshRate(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	srv := startServe(t, root, "--mode", "inspect")
	g := srv.oauthGrant(t, "refresh-loop", 1)
	form := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	refresh := func(rt string) (int, string, map[string]string) {
		res, body := srv.raw(t, "POST", "/token", url.Values{"grant_type": {"refresh_token"}, "client_id": {g.client}, "refresh_token": {rt}}.Encode(), form)
		var out map[string]string
		json.Unmarshal([]byte(body), &out)
		return res.StatusCode, res.Header.Get("Retry-After"), out
	}
	rt, at := g.refresh, g.token
	for i := range 10 {
		status, _, out := refresh(rt)
		if status != 200 || out["refresh_token"] == "" {
			t.Fatalf("refresh %d: %d %v", i+1, status, out)
		}
		rt, at = out["refresh_token"], out["access_token"]
	}
	status, retry, out := refresh(rt)
	if status != 429 || retry == "" || out["error"] != "temporarily_unavailable" || !strings.Contains(out["error_description"], "still valid") {
		t.Fatalf("the 11th refresh in a minute: %d (Retry-After %q) %v", status, retry, out)
	}
	// The refusal left the grant and its newest access token alone.
	srv.initSession(t, map[string]string{"Authorization": "Bearer " + at})
}

// A made-up refresh token, which anyone reaching a tunnel can send, is
// refused without the store's lock: here the test holds it throughout, as
// a revoke or a real refresh would, and the answer still comes. Each one
// once took the lock and decoded the whole store (19 ms for the 1.9 MB a
// stranger's registrations made it), so a flood of them queued the owner's
// `juju clients revoke` behind them. The real refresh token works once the
// lock is free.
func TestServeMadeUpRefreshTokenTakesNoLock(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	srv := startServe(t, root, "--mode", "inspect")
	g := srv.oauthGrant(t, "made-up-refresh", 1)
	unlock, err := filelock.Lock(filepath.Join(srv.home, "state", "oauth", "oauth.lock"))
	if err != nil {
		t.Fatal(err)
	}
	form := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	refresh := func(rt string) (int, map[string]string) {
		res, body := srv.raw(t, "POST", "/token", url.Values{"grant_type": {"refresh_token"}, "client_id": {g.client}, "refresh_token": {rt}}.Encode(), form)
		var out map[string]string
		json.Unmarshal([]byte(body), &out)
		return res.StatusCode, out
	}
	answered := make(chan int, 1)
	go func() { // raw's t.Fatal belongs to the test's goroutine
		res, err := http.PostForm(srv.base+"/token", url.Values{"grant_type": {"refresh_token"},
			"client_id": {g.client}, "refresh_token": {"jjr_" + strings.Repeat("A", 43)}})
		if err != nil {
			answered <- 0
			return
		}
		res.Body.Close()
		answered <- res.StatusCode
	}()
	select {
	case status := <-answered:
		unlock()
		if status != 400 {
			t.Fatalf("a made-up refresh token: %d, want 400", status)
		}
	case <-time.After(20 * time.Second):
		unlock()
		<-answered
		t.Fatal("a made-up refresh token waited for the store's lock")
	}
	if status, out := refresh(g.refresh); status != 200 || out["access_token"] == "" {
		t.Fatalf("the real refresh token: %d %v", status, out)
	}
}
