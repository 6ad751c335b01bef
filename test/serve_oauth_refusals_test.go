package test

import (
	"net/url"
	"strings"
	"testing"
)

// Each OAuth refusal, end to end against juju serve: registrations with
// unsafe redirect URIs; authorization requests for unknown clients (an
// error page, no redirect), without PKCE S256, for another resource;
// wrong pairing codes until the page gives up; code replay; a wrong
// verifier; forged bearer tokens on /mcp. No refused request writes.
func TestServeOAuthRefusals(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	srv := startServe(t, root, "--mode", "trusted")
	form := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}

	for _, uri := range []string{"javascript:alert(1)", "data:text/html,x", "http://evil.example/cb", "https://claude.ai/cb#x", "not a url",
		"https://cl%D0%B0ude.ai/cb", "https://%E2%80%AEia.edualc/cb", "https://a.com:99999/cb"} {
		if res, body := srv.raw(t, "POST", "/register", `{"redirect_uris":["`+uri+`"]}`, nil); res.StatusCode != 400 {
			t.Errorf("register %q: %d %s", uri, res.StatusCode, body)
		}
	}
	res, body := srv.raw(t, "POST", "/register", `{"client_name":"refused","redirect_uris":["https://client.example/cb"]}`, nil)
	if res.StatusCode != 201 {
		t.Fatal(res.StatusCode, body)
	}
	clientID := body[strings.Index(body, `"client_id":"`)+13:]
	clientID = clientID[:strings.IndexByte(clientID, '"')]
	verifier := "refusals-verifier-0123456789-0123456789-abcdef"
	authorize := func(over map[string]string) (int, *url.URL) {
		q := url.Values{"response_type": {"code"}, "client_id": {clientID}, "redirect_uri": {"https://client.example/cb"},
			"code_challenge": {s256(verifier)}, "code_challenge_method": {"S256"}, "state": {"s"}, "resource": {srv.url}}
		for k, v := range over {
			if v == "" {
				q.Del(k)
			} else {
				q.Set(k, v)
			}
		}
		res, _ := srv.raw(t, "GET", "/authorize?"+q.Encode(), "", nil)
		loc, _ := url.Parse(res.Header.Get("Location"))
		return res.StatusCode, loc
	}
	for name, over := range map[string]map[string]string{
		"unknown client":   {"client_id": "c_unknown"},
		"foreign redirect": {"redirect_uri": "https://evil.example/cb"},
	} {
		if status, loc := authorize(over); status != 400 || loc.String() != "" {
			t.Errorf("%s: %d, redirect %q (want an error page)", name, status, loc)
		}
	}
	for name, c := range map[string]struct {
		over map[string]string
		code string
	}{
		"no PKCE":        {map[string]string{"code_challenge": "", "code_challenge_method": ""}, "invalid_request"},
		"plain PKCE":     {map[string]string{"code_challenge_method": "plain", "code_challenge": verifier}, "invalid_request"},
		"other resource": {map[string]string{"resource": "https://evil.example/mcp"}, "invalid_target"},
	} {
		// An error page even for a registered client and redirect URI:
		// anyone can register one, and juju redirects nowhere on its own.
		if status, loc := authorize(c.over); status != 400 || loc.String() != "" {
			t.Errorf("%s: %d, redirect %q (want an error page naming %s)", name, status, loc, c.code)
		}
	}
	if strings.Contains(srv.log.String(), "pairing code for") {
		t.Fatal("a refused authorization request printed a pairing code")
	}

	// Wrong pairing codes: the page gives up after five.
	q := url.Values{"response_type": {"code"}, "client_id": {clientID}, "redirect_uri": {"https://client.example/cb"},
		"code_challenge": {s256(verifier)}, "code_challenge_method": {"S256"}, "state": {"s"}}
	page := srv.loadConsent(t, srv.base+"/authorize?"+q.Encode())
	right, _ := srv.pairingCode(t, 1)
	for i := range 5 {
		if status, loc := srv.submitConsent(t, page, "ZZZZ-ZZZZ", "allow"); status < 400 || loc.String() != "" {
			t.Fatalf("wrong code %d: %d %v", i+1, status, loc)
		}
	}
	if status, loc := srv.submitConsent(t, page, right, "allow"); status < 400 || loc.String() != "" {
		t.Fatalf("the right code after five wrong ones: %d %v", status, loc)
	}
	// A form without its cookie (another site's form) is refused.
	page = srv.loadConsent(t, srv.base+"/authorize?"+q.Encode())
	right, _ = srv.pairingCode(t, 2)
	noCookie := page
	noCookie.cookies = nil
	if status, _ := srv.submitConsent(t, noCookie, right, "allow"); status != 403 {
		t.Fatalf("a form without its cookie: %d", status)
	}

	// Code replay and a wrong verifier.
	page = srv.loadConsent(t, srv.base+"/authorize?"+q.Encode())
	right, _ = srv.pairingCode(t, 3)
	_, loc := srv.submitConsent(t, page, right, "allow")
	code := loc.Query().Get("code")
	exchange := url.Values{"grant_type": {"authorization_code"}, "client_id": {clientID}, "code": {code},
		"redirect_uri": {"https://client.example/cb"}, "code_verifier": {verifier}}
	bad := url.Values{}
	for k, v := range exchange {
		bad[k] = v
	}
	bad.Set("code_verifier", verifier+"x")
	page = srv.loadConsent(t, srv.base+"/authorize?"+q.Encode())
	right, _ = srv.pairingCode(t, 4)
	_, loc = srv.submitConsent(t, page, right, "allow")
	bad.Set("code", loc.Query().Get("code"))
	if res, body := srv.raw(t, "POST", "/token", bad.Encode(), form); res.StatusCode != 400 || !strings.Contains(body, "invalid_grant") {
		t.Fatalf("wrong verifier: %d %s", res.StatusCode, body)
	}
	res, body = srv.raw(t, "POST", "/token", exchange.Encode(), form)
	if res.StatusCode != 200 {
		t.Fatalf("exchange: %d %s", res.StatusCode, body)
	}
	access := body[strings.Index(body, `"access_token":"`)+16:]
	access = access[:strings.IndexByte(access, '"')]
	if res, _ := srv.raw(t, "POST", "/token", exchange.Encode(), form); res.StatusCode != 400 {
		t.Fatalf("replayed code: %d", res.StatusCode)
	}
	if res, _ := srv.raw(t, "POST", "/mcp", writeCall("pwned-replay.txt", true), merge(modernHeaders("write_file"), map[string]string{"Authorization": "Bearer " + access})); res.StatusCode != 401 {
		t.Fatalf("the token of a replayed code: %d", res.StatusCode)
	}

	// Forged bearer tokens.
	for name, tok := range map[string]string{
		"jwt alg none":   "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJjXzEiLCJhdWQiOiIifQ.",
		"jwt hs256":      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln",
		"access-shaped":  "jja_" + strings.Repeat("A", 43),
		"altered access": access[:len(access)-1] + "Q",
	} {
		path := "pwned-" + strings.ReplaceAll(name, " ", "-") + ".txt"
		if res, _ := srv.raw(t, "POST", "/mcp", writeCall(path, true), merge(modernHeaders("write_file"), map[string]string{"Authorization": "Bearer " + tok})); res.StatusCode != 401 {
			t.Errorf("%s: %d", name, res.StatusCode)
		}
		mustNotExist(t, root, path)
	}
	mustNotExist(t, root, "pwned-replay.txt")
}
