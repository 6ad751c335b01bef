package test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

var (
	pairingRE = regexp.MustCompile(`juju: pairing code for "[^"]*" \(OAuth client (c_[A-Za-z0-9_-]+);[^\n]*\n\s*\n\s+([A-Z0-9]{4}-[A-Z0-9]{4})`)
	txnRE     = regexp.MustCompile(`name="txn" value="([^"]+)"`)
	csrfRE    = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
	actionRE  = regexp.MustCompile(`<form method="post" action="([^"]+)"`)
)

// browser loads an authorization URL as the owner's browser would, and
// returns the consent form's fields and cookie.
type consentForm struct {
	txn, csrf string
	cookies   []*http.Cookie
	page      string
	header    http.Header
}

func (s *server) loadConsent(t *testing.T, authURL string) consentForm {
	t.Helper()
	req, _ := http.NewRequest("GET", authURL, nil)
	res, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := res.Body.Read(buf)
		b.WriteString(string(buf[:n]))
		if err != nil {
			break
		}
	}
	f := consentForm{page: b.String(), cookies: res.Cookies(), header: res.Header}
	if m := txnRE.FindStringSubmatch(f.page); m != nil {
		f.txn = m[1]
	}
	if m := csrfRE.FindStringSubmatch(f.page); m != nil {
		f.csrf = m[1]
	}
	if res.StatusCode != 200 || f.txn == "" {
		t.Fatalf("consent page: %d\n%s", res.StatusCode, f.page)
	}
	return f
}

// pairingCode waits for the pairing code juju printed for the n-th page
// (counting from 1) and returns it with the client it names.
func (s *server) pairingCode(t *testing.T, n int) (code, clientID string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if m := pairingRE.FindAllStringSubmatch(s.log.String(), -1); len(m) >= n {
			return m[n-1][2], m[n-1][1]
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("juju printed no pairing code %d:\n%s", n, s.log)
	return "", ""
}

// submitConsent posts the consent form as a browser would, with the Origin
// header a browser sends under the page's Referrer-Policy (formOrigin),
// and returns the answer's status and Location.
func (s *server) submitConsent(t *testing.T, f consentForm, code, action string) (int, *url.URL) {
	t.Helper()
	form := url.Values{"txn": {f.txn}, "csrf": {f.csrf}, "code": {code}, "action": {action}}
	req, _ := http.NewRequest("POST", s.base+"/authorize", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", formOrigin(f.header.Get("Referrer-Policy"), s.base, s.base))
	for _, c := range f.cookies {
		req.AddCookie(c)
	}
	res, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc, _ := url.Parse(res.Header.Get("Location"))
	return res.StatusCode, loc
}

// OAuth end to end, the way a client does it, with mcp-go's OAuth client:
// the 401 leads to the metadata; the client registers, sends the owner's
// browser to /authorize with PKCE; the owner types the code juju printed;
// the client exchanges the code, calls tools, refreshes (the refresh token
// rotates, the old one is refused); `juju clients revoke` ends it.
func TestServeOAuth(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "trusted")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	store := transport.NewMemoryTokenStore()
	const redirect = "http://127.0.0.1:53682/callback"
	c, err := client.NewOAuthStreamableHttpClient(srv.url, client.OAuthConfig{
		RedirectURI: redirect, PKCEEnabled: true, TokenStore: store,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-11-25"
	init.Params.ClientInfo = mcp.Implementation{Name: "e2e-oauth", Version: "1"}
	_, err = c.Initialize(ctx, init)
	if !client.IsOAuthAuthorizationRequiredError(err) {
		t.Fatalf("initialize without a token: %v, want an OAuth authorization error", err)
	}
	h := client.GetOAuthHandler(err)
	if err := h.RegisterClient(ctx, "e2e-oauth-client"); err != nil {
		t.Fatalf("register: %v", err)
	}
	verifier, _ := client.GenerateCodeVerifier()
	state, _ := client.GenerateState()
	authURL, err := h.GetAuthorizationURL(ctx, state, client.GenerateCodeChallenge(verifier))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(authURL, srv.base+"/authorize?") || !strings.Contains(authURL, "resource=") {
		t.Fatalf("authorization URL %s", authURL)
	}

	form := srv.loadConsent(t, authURL)
	code, clientID := srv.pairingCode(t, 1)
	if clientID != h.GetClientID() {
		t.Fatalf("the pairing notice names %s, the client is %s", clientID, h.GetClientID())
	}
	everything := form.page + strings.Join(form.header.Values("Set-Cookie"), ";")
	for k, v := range form.header {
		everything += k + strings.Join(v, ",")
	}
	if strings.Contains(everything, code) || strings.Contains(everything, strings.ReplaceAll(code, "-", "")) {
		t.Fatal("the pairing code is in the consent page, its headers or cookies")
	}
	if !strings.Contains(form.page, "e2e-oauth-client") || !strings.Contains(form.page, "trusted") {
		t.Errorf("the consent page does not name the client and the mode:\n%s", form.page)
	}
	if status, _ := srv.submitConsent(t, form, "AAAA-AAAA", "allow"); status != 401 {
		t.Fatalf("a wrong pairing code: %d", status)
	}
	status, loc := srv.submitConsent(t, form, code, "allow")
	if status != 303 || loc == nil || !strings.HasPrefix(loc.String(), redirect) || loc.Query().Get("state") != state {
		t.Fatalf("consent: %d %v", status, loc)
	}
	if err := h.ProcessAuthorizationResponse(ctx, loc.Query().Get("code"), state, verifier); err != nil {
		t.Fatalf("exchange: %v", err)
	}
	tok, _ := store.GetToken(ctx)
	if tok.ExpiresIn <= 0 || tok.ExpiresIn > 3600 {
		t.Errorf("access token lives %d s, want at most an hour", tok.ExpiresIn)
	}

	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize with the token: %v", err)
	}
	s := &session{t: t, c: c, root: root, home: srv.home, stderr: srv.log.String}
	if !strings.Contains(s.ok("read_file", map[string]any{"path": "a.txt"}), "alpha") {
		t.Fatal("read_file over OAuth")
	}
	s.ok("write_file", map[string]any{"path": "oauth.txt", "content": "via oauth\n"})
	if !fileExists(root, "oauth.txt") {
		t.Fatal("write_file over OAuth did not land")
	}
	named := false
	for _, e := range auditJSON(t, srv.home, root) {
		named = named || e.Client == "e2e-oauth [oauth:"+clientID+"]"
	}
	if !named {
		t.Errorf("the audit does not name the OAuth client %s", clientID)
	}

	// Refresh: the refresh token rotates; the old one is refused, and its
	// replay revokes the grant (both tokens stop working).
	old := tok.RefreshToken
	fresh, err := h.RefreshToken(ctx, old)
	if err != nil || fresh.RefreshToken == old || fresh.AccessToken == tok.AccessToken {
		t.Fatalf("refresh: %v %+v", err, fresh)
	}
	bearer := map[string]string{"Authorization": "Bearer " + fresh.AccessToken}
	if res, body := srv.raw(t, "POST", "/mcp", writeCall("refreshed.txt", true), merge(bearer, modernHeaders("write_file"))); res.StatusCode != 200 || !fileExists(root, "refreshed.txt") {
		t.Fatalf("the refreshed token: %d %s", res.StatusCode, body)
	}
	res, body := srv.raw(t, "POST", "/token", url.Values{"grant_type": {"refresh_token"}, "client_id": {clientID}, "refresh_token": {old}}.Encode(),
		map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	if res.StatusCode != 400 || !strings.Contains(body, "invalid_grant") {
		t.Fatalf("the rotated refresh token: %d %s", res.StatusCode, body)
	}
	if res, _ := srv.raw(t, "POST", "/mcp", writeCall("pwned-after-reuse.txt", true), merge(bearer, modernHeaders("write_file"))); res.StatusCode != 401 {
		t.Fatalf("the grant survived the replay of a rotated refresh token: %d", res.StatusCode)
	}
	mustNotExist(t, root, "pwned-after-reuse.txt")

	// A second grant, then juju clients list and revoke.
	access := srv.oauthGrant(t, "revoke-me", 2)
	bearer = map[string]string{"Authorization": "Bearer " + access.token}
	if res, _ := srv.raw(t, "POST", "/mcp", writeCall("before-revoke.txt", true), merge(bearer, modernHeaders("write_file"))); res.StatusCode != 200 {
		t.Fatalf("second grant: %d", res.StatusCode)
	}
	// Grants survive a restart (on the same address: a token is bound to
	// the resource it was issued for).
	port := srv.port
	srv.stop()
	firstLog := srv.log.String()
	srv = startServeHome(t, srv.home, root, "--mode", "trusted", "--addr", "127.0.0.1:"+port)
	if res, body := srv.raw(t, "POST", "/mcp", writeCall("after-restart.txt", true), merge(bearer, modernHeaders("write_file"))); res.StatusCode != 200 || !fileExists(root, "after-restart.txt") {
		t.Fatalf("the grant after a restart: %d %s", res.StatusCode, body)
	}
	var list []struct {
		ID, Name     string
		RedirectURIs []string `json:"redirectUris"`
		Grants       int
	}
	if err := json.Unmarshal([]byte(juju(t, srv.home, root, "clients", "list", "--json")), &list); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range list {
		found = found || c.ID == access.client && c.Name == "revoke-me" && c.Grants == 1
	}
	if !found {
		t.Fatalf("juju clients list: %+v", list)
	}
	if out := juju(t, srv.home, root, "clients", "list"); !strings.Contains(out, access.client) || !strings.Contains(out, "revoke-me") {
		t.Fatalf("juju clients list:\n%s", out)
	}
	// The client's session and its GET stream are open when it is
	// revoked: both end, which pings would otherwise keep alive.
	sid := srv.initSession(t, bearer)
	sctx, scancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer scancel()
	sreq, _ := http.NewRequestWithContext(sctx, "GET", srv.url, nil)
	for k, v := range merge(bearer, map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25", "Accept": "text/event-stream"}) {
		sreq.Header.Set(k, v)
	}
	stream, err := http.DefaultClient.Do(sreq)
	if err != nil || stream.StatusCode != 200 {
		t.Fatalf("the client's GET stream: %v %v", stream, err)
	}
	juju(t, srv.home, root, "clients", "revoke", access.client)
	revoked := time.Now()
	if _, err := io.Copy(io.Discard, stream.Body); err != nil {
		t.Fatalf("the revoked client's GET stream did not end: %v", err)
	}
	if d := time.Since(revoked); d > 30*time.Second {
		t.Fatalf("the revoked client's GET stream ended after %s", d)
	}
	if res, _ := srv.raw(t, "POST", "/mcp", writeCall("pwned-after-revoke.txt", true), merge(bearer, modernHeaders("write_file"))); res.StatusCode != 401 {
		t.Fatalf("a revoked client's token: %d", res.StatusCode)
	}
	mustNotExist(t, root, "pwned-after-revoke.txt")
	if res, body := srv.raw(t, "POST", "/token", url.Values{"grant_type": {"refresh_token"}, "client_id": {access.client}, "refresh_token": {access.refresh}}.Encode(),
		map[string]string{"Content-Type": "application/x-www-form-urlencoded"}); res.StatusCode != 401 || !strings.Contains(body, `"invalid_client"`) {
		// An unknown client, so that the client registers again.
		t.Fatalf("a revoked client's refresh token: %d %s, want 401 invalid_client", res.StatusCode, body)
	}

	log := firstLog + srv.log.String()
	for _, secret := range []string{tok.AccessToken, tok.RefreshToken, fresh.AccessToken, fresh.RefreshToken, verifier, access.token, access.refresh} {
		if strings.Contains(log, secret) {
			t.Fatal("a token or verifier is in juju's log")
		}
	}
}

// grantResult is what a raw OAuth flow obtained.
type grantResult struct{ client, token, refresh string }

// oauthGrant runs the OAuth flow with raw HTTP for a client named name,
// whose consent page is the n-th of the server's life.
func (s *server) oauthGrant(t *testing.T, name string, n int) grantResult {
	t.Helper()
	const redirect = "https://client.example/callback"
	res, body := s.raw(t, "POST", "/register", `{"client_name":"`+name+`","redirect_uris":["`+redirect+`"]}`, nil)
	var reg struct {
		ClientID string `json:"client_id"`
	}
	json.Unmarshal([]byte(body), &reg)
	if res.StatusCode != 201 || reg.ClientID == "" {
		t.Fatalf("register: %d %s", res.StatusCode, body)
	}
	verifier := strings.Repeat("v", 20) + "-raw-flow-verifier-0123456789"
	q := url.Values{"response_type": {"code"}, "client_id": {reg.ClientID}, "redirect_uri": {redirect},
		"code_challenge": {s256(verifier)}, "code_challenge_method": {"S256"}, "state": {"s"}, "resource": {s.url}}
	form := s.loadConsent(t, s.base+"/authorize?"+q.Encode())
	code, _ := s.pairingCode(t, n)
	status, loc := s.submitConsent(t, form, code, "allow")
	if status != 303 || loc.Query().Get("code") == "" {
		t.Fatalf("consent: %d %v", status, loc)
	}
	res, body = s.raw(t, "POST", "/token", url.Values{"grant_type": {"authorization_code"}, "client_id": {reg.ClientID},
		"code": {loc.Query().Get("code")}, "redirect_uri": {redirect}, "code_verifier": {verifier}, "resource": {s.url}}.Encode(),
		map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	var tok struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
	}
	json.Unmarshal([]byte(body), &tok)
	if res.StatusCode != 200 || tok.AccessToken == "" {
		t.Fatalf("exchange: %d %s", res.StatusCode, body)
	}
	return grantResult{reg.ClientID, tok.AccessToken, tok.RefreshToken}
}

// The owner's walk of docs/CLI.md for ChatGPT through a tunnel, with every
// request arriving as a tunnel delivers it (Host: the tunnel's name, the
// consent form's Origin its https origin): each URL the client is given —
// the 401's metadata, the issuer, the endpoints, the redirect's iss — is
// the --public-url's, the consent cookie is Secure, and the token works
// there and nowhere else (docs/CLI.md: a grant is for the address it was
// made at), until `juju clients revoke`.
func TestServeOAuthThroughTunnel(t *testing.T) {
	const public = "https://demo-name.trycloudflare.com"
	const redirect = "https://chatgpt.com/connector_platform_oauth_redirect"
	const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"chatgpt","version":"1"}}}`
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--public-url", public)
	if !srv.logged("remote clients connect to " + public + "/mcp with OAuth") {
		t.Fatalf("juju serve does not print the connector's URL:\n%s", srv.log)
	}
	tunnel := map[string]string{"Host": strings.TrimPrefix(public, "https://")}
	// local maps a URL juju gave under the public address to the listener.
	local := func(u string) string {
		if !strings.HasPrefix(u, public+"/") {
			t.Fatalf("juju gave the client %q, not a URL under %s", u, public)
		}
		return srv.base + strings.TrimPrefix(u, public)
	}
	getJSON := func(u string, v any) {
		res, body := srv.raw(t, "GET", local(u), "", tunnel)
		if res.StatusCode != 200 || json.Unmarshal([]byte(body), v) != nil {
			t.Fatalf("GET %s: %d %s", u, res.StatusCode, body)
		}
	}

	res, body := srv.raw(t, "POST", "/mcp", initBody, tunnel)
	challenge := res.Header.Get("WWW-Authenticate")
	_, prm, _ := strings.Cut(challenge, `resource_metadata="`)
	prm, _, _ = strings.Cut(prm, `"`)
	if res.StatusCode != 401 || prm != public+"/.well-known/oauth-protected-resource" {
		t.Fatalf("no token: %d %q %s", res.StatusCode, challenge, body)
	}
	var pr struct {
		Resource string   `json:"resource"`
		Servers  []string `json:"authorization_servers"`
	}
	getJSON(prm, &pr)
	if pr.Resource != public+"/mcp" || len(pr.Servers) != 1 || pr.Servers[0] != public {
		t.Fatalf("protected resource metadata %+v", pr)
	}
	var as struct {
		Issuer                string `json:"issuer"`
		AuthorizationEndpoint string `json:"authorization_endpoint"`
		TokenEndpoint         string `json:"token_endpoint"`
		RegistrationEndpoint  string `json:"registration_endpoint"`
	}
	getJSON(public+"/.well-known/oauth-authorization-server", &as)
	if as.Issuer != public || as.AuthorizationEndpoint != public+"/authorize" || as.TokenEndpoint != public+"/token" || as.RegistrationEndpoint != public+"/register" {
		t.Fatalf("authorization server metadata %+v", as)
	}

	res, body = srv.raw(t, "POST", local(as.RegistrationEndpoint), `{"client_name":"ChatGPT","redirect_uris":["`+redirect+`"],`+
		`"grant_types":["authorization_code","refresh_token"],"response_types":["code"],"token_endpoint_auth_method":"none","scope":"openid"}`, tunnel)
	var reg struct {
		ClientID string `json:"client_id"`
	}
	if res.StatusCode != 201 || json.Unmarshal([]byte(body), &reg) != nil || reg.ClientID == "" {
		t.Fatalf("register: %d %s", res.StatusCode, body)
	}
	verifier, challengeS256 := pkcePair()
	q := url.Values{"response_type": {"code"}, "client_id": {reg.ClientID}, "redirect_uri": {redirect}, "state": {"st"},
		"code_challenge": {challengeS256}, "code_challenge_method": {"S256"}, "resource": {pr.Resource}, "scope": {""}}
	req, _ := http.NewRequest("GET", local(as.AuthorizationEndpoint)+"?"+q.Encode(), nil)
	req.Host = tunnel["Host"]
	page, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	pageBody, _ := io.ReadAll(page.Body)
	page.Body.Close()
	txn, csrf := txnRE.FindSubmatch(pageBody), csrfRE.FindSubmatch(pageBody)
	cookies := page.Cookies()
	if page.StatusCode != 200 || txn == nil || csrf == nil || len(cookies) != 1 || !cookies[0].Secure {
		t.Fatalf("consent page: %d, cookies %v\n%s", page.StatusCode, cookies, pageBody)
	}
	code, _ := srv.pairingCode(t, 1)
	form := url.Values{"txn": {string(txn[1])}, "csrf": {string(csrf[1])}, "code": {code}, "action": {"allow"}}
	post, _ := http.NewRequest("POST", local(as.AuthorizationEndpoint), strings.NewReader(form.Encode()))
	post.Host = tunnel["Host"]
	post.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	post.Header.Set("Origin", formOrigin(page.Header.Get("Referrer-Policy"), public, as.AuthorizationEndpoint))
	post.AddCookie(cookies[0])
	back, err := noRedirects.Do(post)
	if err != nil {
		t.Fatal(err)
	}
	back.Body.Close()
	loc, _ := url.Parse(back.Header.Get("Location"))
	if back.StatusCode != 303 || loc == nil || !strings.HasPrefix(loc.String(), redirect+"?") ||
		loc.Query().Get("iss") != public || loc.Query().Get("state") != "st" || loc.Query().Get("code") == "" {
		t.Fatalf("consent: %d %v", back.StatusCode, loc)
	}

	res, body = srv.raw(t, "POST", local(as.TokenEndpoint), url.Values{"grant_type": {"authorization_code"}, "client_id": {reg.ClientID},
		"code": {loc.Query().Get("code")}, "redirect_uri": {redirect}, "code_verifier": {verifier}, "resource": {pr.Resource}}.Encode(),
		merge(tunnel, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}))
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if res.StatusCode != 200 || json.Unmarshal([]byte(body), &tok) != nil || tok.AccessToken == "" {
		t.Fatalf("token: %d %s", res.StatusCode, body)
	}
	bearer := map[string]string{"Authorization": "Bearer " + tok.AccessToken}
	if res, body := srv.raw(t, "POST", local(pr.Resource), initBody, merge(tunnel, bearer)); res.StatusCode != 200 {
		t.Fatalf("initialize through the tunnel with the token: %d %s", res.StatusCode, body)
	}
	if res, _ := srv.raw(t, "POST", "/mcp", initBody, bearer); res.StatusCode != 401 {
		t.Fatalf("the tunnel's token at the local address: %d, want 401", res.StatusCode)
	}
	juju(t, srv.home, root, "clients", "revoke", reg.ClientID)
	if res, _ := srv.raw(t, "POST", local(pr.Resource), initBody, merge(tunnel, bearer)); res.StatusCode != 401 {
		t.Fatalf("a revoked client's token through the tunnel: %d, want 401", res.StatusCode)
	}
}
