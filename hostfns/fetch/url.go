package fetch

import (
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
)

// MaxURL bounds the length of a URL.
const MaxURL = 8 << 10

// checkURL parses the URL of the first request or of a redirect hop and
// refuses what juju never fetches: another scheme than https (http, file,
// ftp, gopher, data …), credentials in the URL, a missing host, a bad
// port, or an IP address of a special-purpose block written in the URL
// (refused here for a clear message; the dialer checks every address it
// connects to anyway, whatever the URL says). The fragment is dropped.
func (g *guard) checkURL(raw string) (*url.URL, *abi.Error) {
	if len(raw) > MaxURL {
		return nil, abi.Errorf(abi.InvalidArgument, "the URL is %d bytes long, more than %d; shorten it", len(raw), MaxURL)
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, abi.Errorf(abi.InvalidArgument, "%q is not a valid URL; give an absolute https:// URL", clip(raw, 200))
	}
	return u, g.checkParsed(u)
}

// checkParsed is checkURL on a parsed URL (a redirect's target), which is
// refused longer than MaxURL as written again (a path of 30,000 "é"
// is 180 KB percent-encoded).
func (g *guard) checkParsed(u *url.URL) *abi.Error {
	shown := clip(u.Redacted(), 200)
	switch {
	case len(u.String()) > MaxURL:
		return abi.Errorf(abi.InvalidArgument, "%q is %d bytes long, more than %d: juju does not fetch it", shown, len(u.String()), MaxURL)
	case u.Scheme == "":
		return abi.Errorf(abi.InvalidArgument, "%q is not an absolute URL; give an https:// URL", shown)
	case !strings.EqualFold(u.Scheme, "https"):
		return abi.Errorf(abi.InvalidArgument, "juju fetches https:// URLs only, not %s: (%q); use the https address of the page", strings.ToLower(u.Scheme), shown)
	case u.Opaque != "":
		return abi.Errorf(abi.InvalidArgument, "%q is not a valid https URL; write it as https://host/path", shown)
	case u.User != nil:
		return abi.Errorf(abi.InvalidArgument, "juju does not send credentials written in a URL (user:password@); remove them")
	case u.Hostname() == "":
		return abi.Errorf(abi.InvalidArgument, "%q names no host; give an https://host/path URL", shown)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return abi.Errorf(abi.InvalidArgument, "the port %q of %q is not a number from 1 to 65535", p, shown)
		}
	}
	u.Scheme = "https"
	u.Fragment, u.RawFragment = "", ""
	host := u.Hostname()
	a, err := netip.ParseAddr(host)
	if err != nil {
		return nil
	}
	port := u.Port()
	if port == "" {
		port = "443"
	}
	if g.allowed(net.JoinHostPort(host, port)) {
		return nil
	}
	if b := Classify(a); b != nil {
		return blockedError(shown, b)
	}
	return nil
}

// blockedError is the SSRF_BLOCKED answer for an address of a block.
func blockedError(url string, b *Blocked) *abi.Error {
	return abi.Errorf(abi.SSRFBlocked,
		"%q leads to %s, a special-purpose address (%s): juju fetches only from the public internet, never from this machine, private networks or cloud metadata; nothing was sent. Only the owner can allow an exact host:port (fetch.allow in juju's config)",
		url, b.Addr, b.Class())
}

// clip cuts s to n bytes for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
