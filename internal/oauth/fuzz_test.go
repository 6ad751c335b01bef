package oauth

import (
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// FuzzCheckRedirectURI: whatever it accepts is an absolute https URL with
// a host, or http on loopback, without a fragment or user info.
func FuzzCheckRedirectURI(f *testing.F) {
	for _, s := range []string{
		"https://claude.ai/api/mcp/auth_callback", "http://localhost:3000/cb", "http://127.0.0.1/cb",
		"http://[::1]:80/", "javascript:alert(1)", "data:text/html,x", "https://a#b", "http://evil/",
		"HTTPS://A.EXAMPLE/x?y=1", "http://127.0.0.1.evil.example/", "http://[::ffff:127.0.0.1]/",
		"http://0x7f.0.0.1/", "http://2130706433/", "https://user@host/",
		"https://cl%D0%B0ude.ai/cb", "https://%E2%80%AEia.edualc/cb", "https://a.com:99999/cb", "http://[fe80::1%25eth0]/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if CheckRedirectURI(s) != "" {
			return
		}
		u, err := url.Parse(s)
		if !plainASCII(s) {
			t.Fatalf("accepted %q, which is not plain ASCII", s)
		}
		if err != nil || u.Fragment != "" || strings.Contains(s, "#") || u.User != nil || u.Host == "" {
			t.Fatalf("accepted %q", s)
		}
		// The host shown is the one the browser goes to, character for
		// character: nothing percent-decoded, nothing but a DNS name or
		// an IP address and a real port.
		if shown := redirectHost(s); shown != u.Host || strings.Contains(shown, "%") {
			t.Fatalf("accepted %q, whose host is shown as %q but is %q", s, shown, u.Host)
		}
		if h := u.Hostname(); !dnsName(h) && !strings.Contains(h, ":") {
			t.Fatalf("accepted host %q", h)
		}
		if p := u.Port(); p != "" {
			if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
				t.Fatalf("accepted port %q", p)
			}
		}
		switch u.Scheme {
		case "https":
		case "http":
			if !isLoopback(u.Hostname()) {
				t.Fatalf("accepted http to %q", u.Hostname())
			}
		default:
			t.Fatalf("accepted scheme %q", u.Scheme)
		}
	})
}

// readAll returns the store file's text.
func readAll(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, storeFile))
	return string(b), err
}
