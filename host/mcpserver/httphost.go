package mcpserver

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// origins is the HTTP front's allow-list of Host and Origin values, its
// protection against DNS rebinding: a web page the owner visits can make
// their browser send requests to 127.0.0.1 under the page's own host name
// (rebound to 127.0.0.1), or from its own origin. Both are refused before
// anything else is read.
//
// A Host is accepted when it names a loopback address or localhost with the
// bound port, the bound address itself when the owner chose a specific
// non-loopback one, or the host of --public-url. An Origin, when the request
// carries one, must name one of the same, with the matching scheme.
type origins struct {
	port   string     // the bound port
	bound  netip.Addr // the bound address, when a specific non-loopback one
	public *url.URL   // --public-url, or nil; its Path, when not empty, has no final slash
}

// newOrigins builds the allow-list for a server listening on addr.
func newOrigins(addr net.Addr, public *url.URL) origins {
	o := origins{public: public}
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return o
	}
	o.port = port
	if ip, err := netip.ParseAddr(host); err == nil && !ip.IsLoopback() && !ip.IsUnspecified() {
		o.bound = ip.Unmap()
	}
	return o
}

// base checks r's Host, X-Forwarded-Host and Origin headers and returns
// this server's URL as the client reached it, such as
// "http://127.0.0.1:7777" or the public URL, or false when one of them is
// not allowed.
//
// A tunnel that rewrites the Host to juju's own address (ngrok
// --host-header=rewrite, cloudflared's httpHostHeader) names the host the
// client reached in X-Forwarded-Host. That header, when present, must be
// one value naming an allowed host, as Host must, and then is the host the
// client reached: a request forwarded for the public URL's host gets the
// public URL as its base, whose metadata and tokens are the ones the client
// can use. It lets nobody in whom Host would not: whoever can send it to
// juju can send that Host as well, and a web page cannot add it to a
// cross-origin request without a preflight, which juju never answers. The
// scheme is always --public-url's; X-Forwarded-Proto is not read.
func (o origins) base(r *http.Request) (string, bool) {
	base, ok := o.hostBase(r.Host, "")
	if !ok {
		return "", false
	}
	if vals, present := r.Header[forwardedHost]; present {
		if len(vals) != 1 {
			return "", false
		}
		if base, ok = o.hostBase(vals[0], ""); !ok {
			return "", false
		}
	}
	if vals, present := r.Header["Origin"]; present {
		if len(vals) != 1 || !o.originOK(vals[0]) {
			return "", false
		}
	}
	return base, true
}

// forwardedHost is the header in which a proxy names the host the client
// reached (its canonical form, as net/http keys headers).
const forwardedHost = "X-Forwarded-Host"

// hostBase returns the base URL for a Host value, or false. scheme, when
// not empty, is the scheme the value came with (an Origin's).
func (o origins) hostBase(host, scheme string) (string, bool) {
	if o.public != nil && o.isPublic(host) {
		if scheme != "" && scheme != o.public.Scheme {
			return "", false
		}
		return o.public.Scheme + "://" + o.public.Host + o.public.Path, true
	}
	if scheme != "" && scheme != "http" {
		return "", false
	}
	h, port, err := net.SplitHostPort(host)
	if err != nil || port != o.port || o.port == "" {
		return "", false
	}
	if strings.EqualFold(h, "localhost") {
		return "http://localhost:" + port, true
	}
	ip, err := netip.ParseAddr(h)
	if err != nil || ip.Zone() != "" {
		return "", false
	}
	ip = ip.Unmap()
	if !ip.IsLoopback() && !(o.bound.IsValid() && ip == o.bound) {
		return "", false
	}
	return "http://" + net.JoinHostPort(ip.String(), port), true
}

// isPublic reports whether host names --public-url's host, with or without
// the scheme's default port.
func (o origins) isPublic(host string) bool {
	if strings.EqualFold(host, o.public.Host) {
		return true
	}
	if o.public.Port() != "" {
		return false
	}
	def := map[string]string{"https": "443", "http": "80"}[o.public.Scheme]
	return strings.EqualFold(host, o.public.Hostname()+":"+def)
}

// originOK accepts an Origin that is exactly scheme://host[:port] of an
// allowed host. "null", paths, user info and other schemes are refused.
func (o origins) originOK(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Scheme == "" || u.Host == "" || u.User != nil || u.Opaque != "" ||
		u.Path != "" || u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(origin, "?#") {
		return false
	}
	_, ok := o.hostBase(u.Host, strings.ToLower(u.Scheme))
	return ok
}

// local returns the path of a request as juju's routes name it: below the
// public URL's path, when base has one. A proxy that mounts juju at a path
// may strip it from the requests it forwards (Caddy's handle_path,
// tailscale serve) or pass them on whole (nginx's proxy_pass without a
// URI); juju answers both the same. A path outside the prefix is left as
// it is: the well-known URLs of RFC 8414 and RFC 9728 for an issuer and a
// resource with a path put the path after their own.
func (o origins) local(base, path string) string {
	if o.public == nil || o.public.Path == "" {
		return path
	}
	prefix := o.public.Path
	if !strings.HasSuffix(base, prefix) || !strings.HasPrefix(path, prefix) {
		return path
	}
	switch rest := path[len(prefix):]; {
	case rest == "":
		return "/"
	case rest[0] == '/':
		return rest
	}
	return path
}
