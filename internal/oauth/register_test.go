package oauth

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRegister(t *testing.T) {
	r := newRig(t)
	tests := []struct {
		body string
		want int
	}{
		{`{"redirect_uris":["https://claude.ai/api/mcp/auth_callback"],"client_name":"Claude"}`, 201},
		{`{"redirect_uris":["http://localhost:33418/callback"]}`, 201},
		{`{"redirect_uris":["http://127.0.0.1/cb","http://[::1]:8080/cb"]}`, 201},
		{`{"redirect_uris":["https://chatgpt.com/connector_platform_oauth_redirect"],"grant_types":["authorization_code","refresh_token"],"response_types":["code"]}`, 201},
		{`{"redirect_uris":[]}`, 400},
		{`{"client_name":"x"}`, 400},
		{`{"redirect_uris":["http://evil.example/cb"]}`, 400},
		{`{"redirect_uris":["http://127.0.0.1.evil.example/cb"]}`, 400},
		{`{"redirect_uris":["https://claude.ai/cb#frag"]}`, 400},
		{`{"redirect_uris":["javascript:alert(1)"]}`, 400},
		{`{"redirect_uris":["JavaScript://claude.ai/%0aalert(1)"]}`, 400},
		{`{"redirect_uris":["data:text/html,<script>alert(1)</script>"]}`, 400},
		{`{"redirect_uris":["file:///etc/passwd"]}`, 400},
		{`{"redirect_uris":["cursor://anysphere.cursor/oauth"]}`, 400},
		{`{"redirect_uris":["/relative/cb"]}`, 400},
		{`{"redirect_uris":["https://user:pw@claude.ai/cb"]}`, 400},
		{`{"redirect_uris":["https:///nohost"]}`, 400},
		{`{"redirect_uris":["https://claude.ai/cb\n"]}`, 400},
		{`{"redirect_uris":["not a url"]}`, 400},
		// Not ASCII: a C1 control sequence, a bidi override, a look-alike host.
		{`{"redirect_uris":["https://a\u009b2Jb.example/cb"]}`, 400},
		{`{"redirect_uris":["https://a\u202eb.example/cb"]}`, 400},
		{`{"redirect_uris":["https://cl\u0430ude.ai/cb"]}`, 400},
		{`{"redirect_uris":["https://claude.ai/caf\u00e9"]}`, 400},
		{`{"redirect_uris":["https://xn--claude-6of.ai/caf%C3%A9"]}`, 201},
		// ASCII, but the host decodes to other characters, or is no host.
		{`{"redirect_uris":["https://cl%D0%B0ude.ai/cb"]}`, 400},
		{`{"redirect_uris":["https://%E2%80%AEia.edualc/cb"]}`, 400},
		{`{"redirect_uris":["https://cl%61ude.ai/cb"]}`, 400},
		{`{"redirect_uris":["https://a%2Fb.example/cb"]}`, 400},
		{`{"redirect_uris":["http://[fe80::1%25eth0]/cb"]}`, 400},
		{`{"redirect_uris":["https://a_b.example/cb"]}`, 400},
		{`{"redirect_uris":["https://-a.example/cb"]}`, 400},
		{`{"redirect_uris":["https://a..example/cb"]}`, 400},
		{`{"redirect_uris":["https://[claude.ai]/cb"]}`, 400},
		{`{"redirect_uris":["https://claude.ai./cb"]}`, 201},
		{`{"redirect_uris":["https://[2001:db8::1]:8443/cb"]}`, 201},
		// Ports that cannot be.
		{`{"redirect_uris":["https://a.com:99999/cb"]}`, 400},
		{`{"redirect_uris":["https://a.com:0/cb"]}`, 400},
		{`{"redirect_uris":["https://a.com:/cb"]}`, 400},
		{`{"redirect_uris":["http://127.0.0.1:65536/cb"]}`, 400},
		{`{"redirect_uris":["http://127.0.0.1:65535/cb"]}`, 201},
		{`{"redirect_uris":["https://claude.ai/cb"],"grant_types":["client_credentials"]}`, 400},
		{`{"redirect_uris":["https://claude.ai/cb"],"response_types":["token"]}`, 400},
		{`{"redirect_uris":"https://claude.ai/cb"}`, 400},
		{`[]`, 400},
		{`garbage`, 400},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			w := r.do("POST", PathRegister, tt.body, map[string]string{"Content-Type": "application/json"})
			if w.Code != tt.want {
				t.Fatalf("%d, want %d: %s", w.Code, tt.want, w.Body)
			}
		})
	}
	w := r.do("POST", PathRegister, `{"client_name":"\u001b[31mEvil\u202eName\u0007","redirect_uris":["https://a.example/cb"]}`, nil)
	var out map[string]any
	json.Unmarshal(w.Body.Bytes(), &out)
	if out["client_name"] != "[31mEvilName" || out["token_endpoint_auth_method"] != "none" || out["client_secret"] != nil {
		t.Fatalf("registration answer: %s", w.Body)
	}
	if w := r.do("POST", PathRegister, `{"redirect_uris":["https://a.example/cb"]}`, map[string]string{"Content-Type": "text/plain"}); w.Code != 400 {
		t.Fatalf("non-JSON registration: %d", w.Code)
	}
}

// A full client table makes room by forgetting the oldest client that was
// never allowed, once it had time to be; registrations are rate-limited.
func TestRegisterLimits(t *testing.T) {
	r := newRig(t)
	r.s.register.limit = 1 << 20
	granted := r.register(testRedirect)
	r.tokens(granted)
	for range maxClients - 1 {
		r.register(testRedirect)
	}
	body := `{"redirect_uris":["https://a.example/cb"]}`
	if w := r.do("POST", PathRegister, body, nil); w.Code != 503 {
		t.Fatalf("a full table: %d", w.Code)
	}
	r.advance(unclaimedGrace + time.Minute)
	if w := r.do("POST", PathRegister, body, nil); w.Code != 201 {
		t.Fatalf("after the grace: %d %s", w.Code, w.Body)
	}
	list, _ := r.s.store.Clients()
	found := false
	for _, c := range list {
		found = found || c.ID == granted
	}
	if !found || len(list) != maxClients {
		t.Fatalf("%d clients; the granted one kept: %v", len(list), found)
	}
	r.s.register.limit = 2
	r.s.register.times = nil
	r.register(testRedirect)
	r.register(testRedirect)
	if w := r.do("POST", PathRegister, body, nil); w.Code != 429 {
		t.Fatalf("past the rate limit: %d", w.Code)
	}
}

// The host the owner is shown is the URI's as written, and a client
// registered before the host rules (its URI in the store as it was) gets
// an error page, never the consent page.
func TestRedirectHostAsWritten(t *testing.T) {
	for u, want := range map[string]string{
		"https://claude.ai/cb":              "claude.ai",
		"https://cl%D0%B0ude.ai/cb":         "cl%D0%B0ude.ai",
		"https://%E2%80%AEia.edualc:8443?x": "%E2%80%AEia.edualc:8443",
		"http://[::1]:80/cb":                "[::1]:80",
	} {
		if got := redirectHost(u); got != want {
			t.Errorf("redirectHost(%q) = %q, want %q", u, got, want)
		}
	}
	r := newRig(t)
	id := r.register(testRedirect)
	bad := "https://cl%D0%B0ude.ai/cb"
	if err := r.s.store.update(func(d *db) error {
		d.client(id).RedirectURIs = []string{bad}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	w := r.do("GET", authorizeURL(id, map[string]string{"redirect_uri": bad}), "", nil)
	if w.Code != 400 || !strings.Contains(w.Body.String(), "no longer accepts") || len(r.codes) != 0 {
		t.Fatalf("%d, %d codes printed: %s", w.Code, len(r.codes), w.Body)
	}
}

// A client's redirect URIs hold at most maxRedirectBytes together, so a
// full table of strangers' registrations keeps the store small: each
// registration, and every update after, rewrites and syncs all of it.
// Ten URIs of 1,000 bytes each made 100 clients 1 MB.
func TestRegisteredMetadataIsBounded(t *testing.T) {
	r := newRig(t)
	r.s.register.limit = 1 << 20
	uris := func(n, size int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			u := fmt.Sprintf("https://x%d.example/", i)
			fmt.Fprintf(&b, "%q", u+strings.Repeat("a", size-len(u)))
		}
		return b.String()
	}
	w := r.do("POST", PathRegister, `{"redirect_uris":[`+uris(maxRedirectURIs, 1000)+`]}`, nil)
	if w.Code != 400 || !strings.Contains(w.Body.String(), errInvalidRedirectURI) {
		t.Fatalf("ten redirect URIs of 1,000 bytes: %d, want 400 invalid_redirect_uri", w.Code)
	}
	// The most each client may hold: ten URIs within the bound, the
	// longest name, of four-byte characters.
	body := `{"redirect_uris":[` + uris(maxRedirectURIs, maxRedirectBytes/maxRedirectURIs) + `],"client_name":"` + strings.Repeat("😀", maxNameLen) + `"}`
	for range maxClients {
		if w := r.do("POST", PathRegister, body, nil); w.Code != 201 {
			t.Fatalf("a registration within the bounds: %d %s", w.Code, w.Body)
		}
	}
	st, err := os.Stat(filepath.Join(r.dir, storeFile))
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > 512<<10 {
		t.Errorf("%d clients make the store %d bytes", maxClients, st.Size())
	}
}
