package mcpserver

import (
	"strings"
	"testing"
)

// TestClaimFrontNoCORSPreflight holds juju to SECURITY.md, "The HTTP
// transport", A web page in the owner's browser: "juju answers no CORS
// preflight, so a page cannot add an Authorization header to a
// cross-origin request either." A preflight (OPTIONS with Origin and
// Access-Control-Request-Method/-Headers) to /mcp — from a foreign origin,
// from the server's own origin, without and with a token, through the
// public URL, and to the OAuth endpoints from a foreign origin — gets no
// Access-Control-* header and no 2xx status, and no tool runs. A front
// that answered OPTIONS (or let mcp-go's CORS do it) with
// Access-Control-Allow-Origin would let a page's script send the token.
func TestClaimFrontNoCORSPreflight(t *testing.T) {
	rig := newRig(t, "https://tunnel.example", Limits{})
	preflight := map[string]string{
		"Access-Control-Request-Method":  "POST",
		"Access-Control-Request-Headers": "authorization, content-type, mcp-session-id, mcp-protocol-version",
		"Content-Type":                   "",
		"Accept":                         "*/*",
	}
	tests := []struct {
		name, target, host, origin string
		token                      bool
		want                       int
	}{
		{"foreign origin", "/mcp", "127.0.0.1:7777", "https://evil.example", false, 403},
		{"foreign origin with a token", "/mcp", "127.0.0.1:7777", "https://evil.example", true, 403},
		{"null origin", "/mcp", "127.0.0.1:7777", "null", false, 403},
		{"rebound host", "/mcp", "evil.example:7777", "http://evil.example:7777", false, 403},
		{"own origin", "/mcp", "127.0.0.1:7777", "http://127.0.0.1:7777", false, 401},
		{"own origin with a token", "/mcp", "127.0.0.1:7777", "http://127.0.0.1:7777", true, 405},
		{"localhost origin with a token", "/mcp", "localhost:7777", "http://localhost:7777", true, 405},
		{"public origin", "/mcp", "tunnel.example", "https://tunnel.example", false, 401},
		{"public origin with a token", "/mcp", "tunnel.example", "https://tunnel.example", true, 405},
		{"oauth endpoint, foreign origin", "/oauth-test", "127.0.0.1:7777", "https://evil.example", false, 403},
		{"unknown path", "/other", "127.0.0.1:7777", "http://127.0.0.1:7777", false, 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hdr := map[string]string{"Host": tt.host, "Origin": tt.origin, "Authorization": ""}
			if tt.token {
				hdr["Authorization"] = "Bearer " + testToken
			}
			for k, v := range preflight {
				hdr[k] = v
			}
			before := rig.touched.Load()
			w := rig.do("OPTIONS", tt.target, "", hdr)
			for k, v := range w.Header() {
				if strings.HasPrefix(strings.ToLower(k), "access-control-") {
					t.Errorf("the preflight answer carries %s: %v", k, v)
				}
			}
			if w.Code >= 200 && w.Code < 300 {
				t.Errorf("the preflight is answered %d", w.Code)
			}
			if w.Code != tt.want {
				t.Errorf("status %d, want %d: %s", w.Code, tt.want, w.Body)
			}
			if rig.touched.Load() != before {
				t.Error("a tool ran")
			}
			if id := w.Header().Get("Mcp-Session-Id"); id != "" {
				t.Errorf("a preflight opened session %s", id)
			}
		})
	}
}
