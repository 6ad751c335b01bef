package test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
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
