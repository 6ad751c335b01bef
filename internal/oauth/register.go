package oauth

import (
	"encoding/json"
	"mime"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Registration limits.
const (
	// unclaimedGrace is how long a client that was never granted anything
	// keeps its place when the table is full: time for the owner to consent.
	unclaimedGrace  = 10 * time.Minute
	maxClients      = 100
	maxRedirectURIs = 10
	maxNameLen      = 100
	maxURILen       = 2000
	// maxRedirectBytes bounds a client's redirect URIs together. Every
	// registration (30 a minute, from anyone who reaches a tunnel, each
	// evicting an unclaimed client once the table is full) rewrites and
	// syncs the whole store: at ten URIs of maxURILen each, 100 clients
	// made it 1.9 MB, and a stranger could have juju write up to 57 MB a
	// minute, for good. Real clients register one or two URIs of under
	// 100 bytes.
	maxRedirectBytes = 2048
)

// registration is the part of RFC 7591's client metadata juju reads.
type registration struct {
	RedirectURIs            []string `json:"redirect_uris"`
	ClientName              string   `json:"client_name"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
}

// serveRegister is dynamic client registration (RFC 7591). Every client is
// public (no secret; PKCE binds its codes); its redirect URIs must be https,
// or http on a loopback address, without a fragment.
func (s *Server) serveRegister(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		writeError(w, oauthErr(400, errInvalidMetadata, "send the client metadata as application/json"))
		return
	}
	var reg registration
	if err := json.NewDecoder(r.Body).Decode(&reg); err != nil {
		writeError(w, oauthErr(400, errInvalidMetadata, "the client metadata is not a JSON object of RFC 7591"))
		return
	}
	c, e := s.checkRegistration(reg)
	if e != nil {
		writeError(w, e)
		return
	}
	if !s.register.allow() {
		writeError(w, oauthErr(http.StatusTooManyRequests, errTemporarily, "too many registrations; try again in a minute"))
		return
	}
	err := s.store.update(func(d *db) error {
		if len(d.Clients) >= maxClients && !d.evictUnclaimed(s.now().Add(-unclaimedGrace)) {
			return oauthErr(http.StatusServiceUnavailable, errTemporarily,
				"too many registered clients; the owner can remove some with juju clients revoke")
		}
		d.Clients = append(d.Clients, c)
		return nil
	})
	if err != nil {
		if oe, ok := err.(*Error); ok {
			writeError(w, oe)
			return
		}
		s.log.Error("registering an OAuth client", "err", err)
		writeError(w, oauthErr(500, "server_error", "the registration could not be stored"))
		return
	}
	s.log.Info("registered an OAuth client", "client", c.ID, "name", c.Name)
	writeJSON(w, http.StatusCreated, map[string]any{
		"client_id":                  c.ID,
		"client_id_issued_at":        c.Created.Unix(),
		"client_name":                c.Name,
		"redirect_uris":              c.RedirectURIs,
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": "none",
	})
}

// checkRegistration validates the metadata and makes the client.
func (s *Server) checkRegistration(reg registration) (*client, *Error) {
	if len(reg.RedirectURIs) == 0 || len(reg.RedirectURIs) > maxRedirectURIs {
		return nil, oauthErr(400, errInvalidRedirectURI, "give between 1 and 10 redirect_uris")
	}
	total := 0
	for _, u := range reg.RedirectURIs {
		total += len(u)
	}
	if total > maxRedirectBytes {
		return nil, oauthErr(400, errInvalidRedirectURI, "the redirect_uris may hold at most "+strconv.Itoa(maxRedirectBytes)+" bytes together")
	}
	for _, u := range reg.RedirectURIs {
		if err := CheckRedirectURI(u); err != "" {
			return nil, oauthErr(400, errInvalidRedirectURI, err)
		}
	}
	for _, g := range reg.GrantTypes {
		if g != "authorization_code" && g != "refresh_token" {
			return nil, oauthErr(400, errInvalidMetadata, "grant_types may only be authorization_code and refresh_token")
		}
	}
	for _, rt := range reg.ResponseTypes {
		if rt != "code" {
			return nil, oauthErr(400, errInvalidMetadata, "response_types may only be code")
		}
	}
	name := cleanName(reg.ClientName)
	if name == "" {
		name = "unnamed client"
	}
	return &client{
		ID:           random(clientPrefix, 16),
		Name:         name,
		RedirectURIs: slices.Clone(reg.RedirectURIs),
		Created:      s.now().UTC(),
	}, nil
}

// CheckRedirectURI returns why u cannot be a redirect URI, or "": it must
// be an absolute https URL with a host, or an http URL whose host is a
// loopback address or localhost (RFC 8252 §7.3), without user info or a
// fragment.
func CheckRedirectURI(u string) string {
	if len(u) > maxURILen || strings.ContainsAny(u, "#\\ \t\r\n") || !printable(u) {
		return "a redirect URI must be a plain URL without a fragment or spaces"
	}
	if !plainASCII(u) {
		// A URI is ASCII (RFC 3986). Other characters would reach the
		// owner's terminal and the consent page, where the host is the cue
		// against phishing: C1 controls, bidi overrides, look-alike letters.
		return "a redirect URI must be plain ASCII: an internationalised host in its xn-- form, other characters percent-encoded"
	}
	p, err := url.Parse(u)
	if err != nil || !p.IsAbs() || p.Opaque != "" || p.Host == "" {
		return "a redirect URI must be an absolute https:// URL"
	}
	if p.User != nil {
		return "a redirect URI must not carry user information"
	}
	if err := checkHost(u, p); err != "" {
		return err
	}
	switch p.Scheme {
	case "https":
		if p.Hostname() == "" {
			return "a redirect URI needs a host"
		}
		return ""
	case "http":
		if isLoopback(p.Hostname()) {
			return ""
		}
		return "an http redirect URI must point to a loopback address (127.0.0.1, [::1] or localhost); use https otherwise"
	default:
		return "a redirect URI must be https://, or http:// on a loopback address"
	}
}

// maxPort is the largest TCP port.
const maxPort = 65535

// checkHost returns why the host and port of u, parsed as p, cannot be shown to the owner as
// the place the browser goes, or "". url.Parse decodes percent-encoded
// bytes of the host, so an ASCII URI can still have a host of any
// characters ("cl%D0%B0ude.ai" is "clаude.ai", with a Cyrillic а): the
// host must be a DNS name of letters, digits and hyphens (an
// internationalised one in its xn-- form), or an IP address, as written,
// and the port a real one.
func checkHost(u string, p *url.URL) string {
	const msg = "a redirect URI's host must be a DNS name of ASCII letters, digits, hyphens and dots " +
		"(an internationalised one in its xn-- form) or an IP address, without percent-encoding"
	host := p.Hostname()
	if strings.Contains(rawAuthority(u), "%") {
		return msg
	}
	if strings.HasPrefix(p.Host, "[") {
		ip, err := netip.ParseAddr(host)
		if err != nil || !ip.Is6() || ip.Zone() != "" {
			return msg
		}
	} else if !dnsName(host) {
		return msg
	}
	if port := p.Port(); port != "" || strings.HasSuffix(p.Host, ":") {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > maxPort {
			return "a redirect URI's port must be a number from 1 to 65535"
		}
	}
	return ""
}

// maxLabel and maxDNSName bound a DNS name's labels and the whole name
// (RFC 1035 §2.3.4).
const (
	maxLabel   = 63
	maxDNSName = 253
)

// dnsName reports whether host is a DNS name of letter-digit-hyphen labels
// (which takes in IPv4 addresses and xn-- labels), with at most a final
// dot.
func dnsName(host string) bool {
	host = strings.TrimSuffix(host, ".")
	if host == "" || len(host) > maxDNSName {
		return false
	}
	for label := range strings.SplitSeq(host, ".") {
		if label == "" || len(label) > maxLabel || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// isLoopback reports whether host is localhost or a loopback address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Zone() == "" && ip.Unmap().IsLoopback()
}

// printable reports whether s holds no control characters.
func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

// plainASCII reports whether s holds only printable ASCII.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// cleanName keeps a client name displayable on a terminal and a page: no
// control or formatting characters (no escape sequences, no bidi tricks),
// at most maxNameLen runes.
func cleanName(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == unicode.ReplacementChar {
			continue
		}
		if n++; n > maxNameLen {
			break
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// redirectHost is where a redirect URI sends the browser (host and port),
// as the owner is shown it: as written in the URI, never decoded, so that
// no percent-encoded byte becomes a character the owner misreads.
func redirectHost(u string) string {
	if _, err := url.Parse(u); err != nil {
		return "?"
	}
	return rawAuthority(u)
}

// rawAuthority is the host and port of an absolute URI as written: what
// follows "//" up to the path, query or fragment, without user info.
func rawAuthority(u string) string {
	_, rest, ok := strings.Cut(u, "//")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	return rest
}
