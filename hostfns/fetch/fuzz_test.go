package fetch

import (
	"net"
	"net/netip"
	"strings"
	"testing"
)

// FuzzClassify checks the address classifier on any 4 or 16 bytes: it
// never panics, refuses whatever netip calls special, and refuses an
// address exactly when the connect hook does.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{"169.254.169.254", "10.0.0.1", "8.8.8.8", "::1", "::ffff:127.0.0.1", "64:ff9b::a9fe:a9fe",
		"2002:a9fe:a9fe::1", "2001::1", "fd00:ec2::254", "2606:4700::1", "fe80::1", "100.64.0.1", "0.0.0.0", "255.255.255.255"} {
		f.Add(netip.MustParseAddr(s).AsSlice())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		a, ok := netip.AddrFromSlice(b)
		if !ok {
			return
		}
		blocked := Classify(a)
		special := a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsMulticast() || a.IsUnspecified() || !a.IsGlobalUnicast() || a.Is4In6()
		if special && blocked == nil {
			t.Fatalf("%s is special, not refused", a)
		}
		if blocked != nil && (blocked.Error() == "" || blocked.Class() == "") {
			t.Fatalf("%s: refused without a class", a)
		}
		network := "tcp6"
		if a.Is4() {
			network = "tcp4"
		}
		err := checkConnect(network, netip.AddrPortFrom(a, 443).String(), false)
		if (err == nil) != (blocked == nil) {
			t.Fatalf("%s: Classify %v, connect hook %v", a, blocked, err)
		}
		if checkConnect(network, netip.AddrPortFrom(a, 443).String(), true) != nil {
			t.Fatalf("%s: an allowed pair refused", a)
		}
	})
}

// FuzzCheckURL checks the URL gate on any string: it never panics, and
// what it accepts is an https URL with a host, no credentials, no
// fragment, and no special-purpose address written in it.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"https://example.com/a?b#c", "http://example.com/", "file:///etc/passwd", "ftp://x/", "gopher://x:70/", "data:text/plain,hi",
		"https://169.254.169.254/latest/meta-data/", "https://[::ffff:a9fe:a9fe]/", "https://[fe80::1%25eth0]/", "https://2852039166/",
		"https://0x7f.1/", "https://127.1/", "https://user:pw@example.com/", "HTTPS://EXAMPLE.COM:8443", "https://example.com:0/",
		"https://[64:ff9b::a9fe:a9fe]:443/", "https:example.com", "//example.com/", "https://127.0.0.1:8443/ok",
	} {
		f.Add(s)
	}
	g := &guard{allow: map[string]bool{"127.0.0.1:8443": true}}
	f.Fuzz(func(t *testing.T, raw string) {
		u, aerr := g.checkURL(raw)
		if aerr != nil {
			if !aerr.Code.Valid() || aerr.Message == "" {
				t.Fatalf("%q: bad refusal %+v", raw, aerr)
			}
			return
		}
		if u.Scheme != "https" || u.Hostname() == "" || u.User != nil || u.Fragment != "" || u.Opaque != "" {
			t.Fatalf("%q accepted as %#v", raw, u)
		}
		if a, err := netip.ParseAddr(u.Hostname()); err == nil {
			port := u.Port()
			if port == "" {
				port = "443"
			}
			if Classify(a) != nil && !g.allowed(net.JoinHostPort(u.Hostname(), port)) {
				t.Fatalf("%q accepted with the special-purpose address %s", raw, a)
			}
		}
		if strings.ContainsAny(u.Host, " \t\n") {
			t.Fatalf("%q accepted with blanks in the host", raw)
		}
	})
}
