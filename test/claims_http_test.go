package test

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// claimsHTTPAuditFiles returns the contents of every audit log under a
// JUJU_HOME (one per workspace), failing the test when there is none.
func claimsHTTPAuditFiles(t *testing.T, home string) string {
	t.Helper()
	var all strings.Builder
	n := 0
	err := filepath.WalkDir(home, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && d.Name() == "audit.jsonl" {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			all.Write(b)
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 || all.Len() == 0 {
		t.Fatalf("no audit log (audit.jsonl) under %s", home)
	}
	return all.String()
}

// claimsHTTPLeak reports where a secret, or any 12 characters of it in a
// row when it is long (a cut or prefixed token), shows up in text.
func claimsHTTPLeak(text, secret string) (string, bool) {
	if secret == "" {
		return "", false
	}
	if strings.Contains(text, secret) {
		return secret, true
	}
	const window = 12
	if len(secret) < 2*window {
		return "", false
	}
	for i := 0; i+window <= len(secret); i++ {
		if strings.Contains(text, secret[i:i+window]) {
			return secret[i : i+window], true
		}
	}
	return "", false
}

// claimsHTTPTooLarge posts a tools/call of write_file over the 8 MiB body
// cap, stateless, with the given Authorization: it is refused TOO_LARGE
// and audited on the front's own path.
func claimsHTTPTooLarge(t *testing.T, srv *server, auth string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"pwned-big.txt","content":"` +
		strings.Repeat("x", 9<<20) + `"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	res, out := srv.raw(t, "POST", "/mcp", body, merge(map[string]string{"Authorization": auth}, modernHeaders("write_file")))
	if res.StatusCode != 200 || !strings.Contains(out, "TOO_LARGE") {
		t.Fatalf("a body over the cap: %d %.300s", res.StatusCode, out)
	}
}

// TestClaimHTTPAuditHoldsNoToken holds juju to SECURITY.md, "The HTTP
// transport", Stolen or forged OAuth tokens: "No token, code, verifier or
// pairing code is written to the log, the audit or an error message", and
// Another local user or process: "The token is never logged." Through a
// real `juju serve`, tool calls that run, fail and are refused (TOO_LARGE,
// audited by the front) are made with the local bearer token and with an
// OAuth access token (in a session and stateless, before and after a
// refresh). The workspace's audit.jsonl must record them — naming the
// OAuth client by its id — yet hold none of the local token, the access
// and refresh tokens, the PKCE verifier or the pairing code, not even 12
// characters of a token in a row; juju's log must hold no token either.
func TestClaimHTTPAuditHoldsNoToken(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--mode", "trusted")
	if srv.token == "" {
		t.Fatal("no local token")
	}

	// The local token: a session, a stateless call, a refused call.
	local := srv.connect(t, "claims-local", "2025-11-25")
	local.ok("read_file", map[string]any{"path": "a.txt"})
	local.ok("write_file", map[string]any{"path": "local.txt", "content": "local\n"})
	local.fail("read_file", map[string]any{"path": "missing.txt"}, "NOT_FOUND")
	if res, body := srv.raw(t, "POST", "/mcp", writeCall("local-raw.txt", true), merge(srv.bearer(), modernHeaders("write_file"))); res.StatusCode != 200 || !fileExists(root, "local-raw.txt") {
		t.Fatalf("stateless call with the local token: %d %s", res.StatusCode, body)
	}
	claimsHTTPTooLarge(t, srv, "Bearer "+srv.token)

	// OAuth: a grant through the consent page, then the same calls.
	g := srv.oauthGrant(t, "claims-oauth", 1)
	pairing, _ := srv.pairingCode(t, 1)
	verifier := strings.Repeat("v", 20) + "-raw-flow-verifier-0123456789" // oauthGrant's
	oauth := srv.connectWith(t, "claims-oauth-session", "2025-11-25", map[string]string{"Authorization": "Bearer " + g.token})
	oauth.ok("read_file", map[string]any{"path": "a.txt"})
	oauth.ok("write_file", map[string]any{"path": "oauth.txt", "content": "oauth\n"})
	oauth.fail("read_file", map[string]any{"path": "missing.txt"}, "NOT_FOUND")
	if res, body := srv.raw(t, "POST", "/mcp", writeCall("oauth-raw.txt", true), merge(map[string]string{"Authorization": "Bearer " + g.token}, modernHeaders("write_file"))); res.StatusCode != 200 || !fileExists(root, "oauth-raw.txt") {
		t.Fatalf("stateless call with the OAuth token: %d %s", res.StatusCode, body)
	}
	claimsHTTPTooLarge(t, srv, "Bearer "+g.token)
	res, body := srv.raw(t, "POST", "/token", url.Values{"grant_type": {"refresh_token"}, "client_id": {g.client}, "refresh_token": {g.refresh}}.Encode(),
		map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
	at2 := claimsHTTPField(body, "access_token")
	rt2 := claimsHTTPField(body, "refresh_token")
	if res.StatusCode != 200 || at2 == "" || rt2 == "" {
		t.Fatalf("refresh: %d %s", res.StatusCode, body)
	}
	if res, body := srv.raw(t, "POST", "/mcp", writeCall("refreshed.txt", true), merge(map[string]string{"Authorization": "Bearer " + at2}, modernHeaders("write_file"))); res.StatusCode != 200 || !fileExists(root, "refreshed.txt") {
		t.Fatalf("stateless call with the refreshed token: %d %s", res.StatusCode, body)
	}

	// The calls are in the audit, the OAuth ones under the client's id.
	var byLocal, byOAuth, tooLarge int
	for _, e := range auditJSON(t, srv.home, root) {
		switch {
		case strings.Contains(e.Client, "[oauth:"+g.client+"]"):
			byOAuth++
		case !strings.Contains(e.Client, "oauth"):
			byLocal++
		}
		if e.Outcome == "TOO_LARGE" {
			tooLarge++
		}
	}
	if byLocal < 5 || byOAuth < 6 || tooLarge != 2 {
		t.Errorf("audited: %d calls with the local token (want 5), %d with the OAuth token (want 6), %d too large (want 2)", byLocal, byOAuth, tooLarge)
	}

	audit := claimsHTTPAuditFiles(t, srv.home)
	secrets := map[string]string{
		"the local token": srv.token, "the access token": g.token, "the refresh token": g.refresh,
		"the refreshed access token": at2, "the refreshed refresh token": rt2,
		"the PKCE verifier": verifier, "the pairing code": pairing, "the pairing code without its dash": strings.ReplaceAll(pairing, "-", ""),
	}
	for what, secret := range secrets {
		if part, leaked := claimsHTTPLeak(audit, secret); leaked {
			t.Errorf("the audit holds %s (%q)", what, part)
		}
	}
	log := srv.log.String()
	for _, what := range []string{"the local token", "the access token", "the refresh token", "the refreshed access token", "the refreshed refresh token", "the PKCE verifier"} {
		if part, leaked := claimsHTTPLeak(log, secrets[what]); leaked {
			t.Errorf("juju's log holds %s (%q)", what, part)
		}
	}
}

// claimsHTTPField is a string field of a flat JSON object, or "".
func claimsHTTPField(body, name string) string {
	i := strings.Index(body, `"`+name+`":"`)
	if i < 0 {
		return ""
	}
	v := body[i+len(name)+4:]
	if j := strings.IndexByte(v, '"'); j >= 0 {
		return v[:j]
	}
	return ""
}

// TestClaimHTTPNoCORSPreflight holds juju to SECURITY.md, "The HTTP
// transport", A web page in the owner's browser: "juju answers no CORS
// preflight, so a page cannot add an Authorization header to a
// cross-origin request either." Against a real `juju serve`, a preflight
// (OPTIONS with Origin and Access-Control-Request-Method/-Headers) to /mcp
// and to each OAuth endpoint, from a foreign origin and from the server's
// own, with and without the token, gets no Access-Control-* header and no
// 2xx status; the same origin's ordinary POST with the token still works,
// and carries no Access-Control-* header either.
func TestClaimHTTPNoCORSPreflight(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	srv := startServe(t, root, "--mode", "trusted")
	check := func(what string, res *http.Response, body string, allow2xx bool) {
		t.Helper()
		for k, v := range res.Header {
			if strings.HasPrefix(strings.ToLower(k), "access-control-") {
				t.Errorf("%s: the answer carries %s: %v", what, k, v)
			}
		}
		if !allow2xx && res.StatusCode >= 200 && res.StatusCode < 300 {
			t.Errorf("%s: answered %d: %.200s", what, res.StatusCode, body)
		}
	}
	paths := []string{"/mcp", "/register", "/token", "/authorize",
		"/.well-known/oauth-authorization-server", "/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"}
	origins := []string{"https://evil.example", "null", srv.base, "http://localhost:" + srv.port}
	for _, path := range paths {
		for _, origin := range origins {
			for _, auth := range []string{"", "Bearer " + srv.token} {
				hdr := map[string]string{
					"Origin":                         origin,
					"Access-Control-Request-Method":  "POST",
					"Access-Control-Request-Headers": "authorization, content-type, mcp-session-id, mcp-protocol-version",
					"Authorization":                  auth,
				}
				res, body := srv.raw(t, "OPTIONS", path, "", hdr)
				check("OPTIONS "+path+" from "+origin+map[bool]string{true: " with the token", false: ""}[auth != ""], res, body, false)
			}
		}
	}
	// Not a vacuous check: the server answers its own origin's requests.
	res, body := srv.raw(t, "POST", "/mcp", writeCall("same-origin.txt", true), merge(srv.bearer(), modernHeaders("write_file"), map[string]string{"Origin": srv.base}))
	if res.StatusCode != 200 || !fileExists(root, "same-origin.txt") {
		t.Fatalf("a same-origin call with the token: %d %s", res.StatusCode, body)
	}
	check("POST /mcp from "+srv.base, res, body, true)
	// And a cross-origin one, even with the token, is refused.
	res, body = srv.raw(t, "POST", "/mcp", writeCall("pwned-cross-origin.txt", true), merge(srv.bearer(), modernHeaders("write_file"), map[string]string{"Origin": "https://evil.example"}))
	if res.StatusCode != 403 {
		t.Fatalf("a cross-origin call with the token: %d %s", res.StatusCode, body)
	}
	check("POST /mcp from https://evil.example", res, body, false)
	mustNotExist(t, root, "pwned-cross-origin.txt")
}
