package oauth

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// serveAuthorize is the authorization endpoint: GET checks the request and
// shows the consent page (printing its pairing code), POST takes the
// owner's decision.
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request, base string) {
	switch r.Method {
	case http.MethodGet:
		s.authorizeStart(w, r, base)
	case http.MethodPost:
		s.authorizeDecide(w, r, base)
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// maxState bounds the client's state value.
const maxState = 1024

// authorizeStart checks an authorization request. A problem is an error
// page, never a redirect: until the client and its redirect URI are known
// good (RFC 6749 §4.1.2.1), and after too, since anyone may register any
// https redirect URI: redirecting a malformed request to it would make
// juju's (tunnel's) host name an open redirector (RFC 9700 §4.11.2). Only
// the owner's decision on the consent page goes back to the client.
func (s *Server) authorizeStart(w http.ResponseWriter, r *http.Request, base string) {
	q := r.URL.Query()
	d, err := s.store.current()
	if err != nil {
		s.log.Error("reading the OAuth store", "err", err)
		errorPage(w, http.StatusInternalServerError, "juju could not read its list of clients; see its log.")
		return
	}
	c := d.client(q.Get("client_id"))
	if c == nil || len(q["client_id"]) != 1 {
		// A client that registered once and keeps its registration
		// (ChatGPT does, per app) cannot start again by itself: the owner
		// must have it register anew.
		errorPage(w, http.StatusBadRequest, "This application is not registered with juju (unknown client_id): it was revoked "+
			"(juju clients revoke), or never allowed and since forgotten. Remove it from the application that uses it "+
			"(in ChatGPT, delete the app) and add it again, so that it registers anew.")
		return
	}
	redirect, explicit := q.Get("redirect_uri"), q.Has("redirect_uri")
	switch {
	case len(q["redirect_uri"]) > 1:
		redirect = ""
	case !explicit && len(c.RedirectURIs) == 1:
		redirect = c.RedirectURIs[0]
	case !registered(c.RedirectURIs, redirect):
		redirect = ""
	}
	if redirect == "" {
		errorPage(w, http.StatusBadRequest, "The redirect_uri is not one this application registered. Start again from the application.")
		return
	}
	if CheckRedirectURI(redirect) != "" {
		// Registered under older, looser rules: its host could not be
		// shown to the owner as it is.
		errorPage(w, http.StatusBadRequest, "This application registered a redirect_uri juju no longer accepts. It must register again.")
		return
	}
	state := q.Get("state")
	fail := func(code, desc string) {
		errorPage(w, http.StatusBadRequest, "The application's authorization request is not valid ("+code+": "+desc+"). Start again from the application.")
	}
	for k, v := range q {
		if len(v) > 1 && k != "resource" {
			fail(errInvalidRequest, repeated(k, authorizeParams))
			return
		}
	}
	challenge, method := q.Get("code_challenge"), q.Get("code_challenge_method")
	switch {
	case len(state) > maxState:
		fail(errInvalidRequest, "state is longer than "+strconv.Itoa(maxState)+" characters")
	case q.Get("response_type") != "code":
		fail(errUnsupportedResponse, "response_type must be code")
	case challenge == "":
		fail(errInvalidRequest, "PKCE is required: send code_challenge with code_challenge_method=S256")
	case method != "S256":
		fail(errInvalidRequest, "code_challenge_method must be S256 (plain is not accepted)")
	case len(challenge) != 43 || !pkceValue(challenge):
		fail(errInvalidRequest, "code_challenge must be the base64url SHA-256 of the code verifier (43 characters)")
	case len(q["resource"]) > 1:
		fail(errInvalidTarget, "give one resource: this server's MCP endpoint, "+base+resourcePath)
	case q.Has("resource") && !isResource(q.Get("resource"), base):
		fail(errInvalidTarget, "resource must be this server's MCP endpoint, "+base+resourcePath)
	default:
		s.openConsent(w, r, &consent{
			clientID: c.ID, clientName: c.Name, redirect: redirect, explicit: explicit,
			challenge: challenge, state: state, resource: base + resourcePath, issuer: base,
		})
	}
}

// registered reports whether redirect is one of a client's redirect URIs:
// the same string, or, for an http URI on a loopback host, the same but for
// the port (RFC 8252 §7.3). A native client listens on whatever port it is
// given at the time: VS Code registers http://127.0.0.1/ and
// http://127.0.0.1:33418/ and, when 33418 is taken, redirects to another
// port, which an exact match refused. Any port of the owner's machine is
// the owner's machine, and PKCE keeps a code that another program there
// received useless to it.
func registered(uris []string, redirect string) bool {
	if slices.Contains(uris, redirect) {
		return true
	}
	want, ok := withoutPort(redirect)
	if !ok {
		return false
	}
	return slices.ContainsFunc(uris, func(u string) bool {
		got, ok := withoutPort(u)
		return ok && got == want
	})
}

// withoutPort returns an http URI on a loopback host without its port, or
// false for any other URI.
func withoutPort(u string) (string, bool) {
	const scheme = "http://"
	p, err := url.Parse(u)
	if err != nil || p.Scheme != "http" || p.User != nil || !isLoopback(p.Hostname()) {
		return "", false
	}
	auth := rawAuthority(u)
	if !strings.HasPrefix(u, scheme+auth) {
		return "", false
	}
	host := auth
	if port := p.Port(); port != "" || strings.HasSuffix(auth, ":") {
		host = strings.TrimSuffix(auth, ":"+port)
	}
	return scheme + host + u[len(scheme)+len(auth):], true
}

// authorizeParams are the parameters of an authorization request.
var authorizeParams = []string{"response_type", "client_id", "redirect_uri", "state", "scope",
	"code_challenge", "code_challenge_method", "resource"}

// repeated says that parameter k is repeated, naming it only when it is
// one of known: the error page is juju's, on the tunnel's host name, and
// whoever sends the owner a link chooses the other names, which read on
// it as juju's own words ("parameter Your session expired, run curl …
// | sh is repeated").
func repeated(k string, known []string) string {
	if slices.Contains(known, k) {
		return "parameter " + k + " is repeated"
	}
	return "a parameter is repeated"
}

// openConsent records the consent, prints its pairing code on the owner's
// terminal and shows the page.
func (s *Server) openConsent(w http.ResponseWriter, r *http.Request, c *consent) {
	if err := s.consents.open(c); err != nil {
		errorPage(w, http.StatusTooManyRequests, "juju is not taking authorizations right now: "+err.Error()+".")
		return
	}
	if s.cfg.Notify != nil {
		s.cfg.Notify(Pairing{
			Code: c.code, ClientID: c.clientID, ClientName: c.clientName, RedirectHost: redirectHost(c.redirect), Page: c.issuer + PathAuthorize,
			Mode: s.cfg.Mode, Roots: s.cfg.Roots, Expires: c.expires,
		})
	}
	s.log.Info("OAuth consent page shown; pairing code printed on the terminal", "client", c.clientID)
	http.SetCookie(w, &http.Cookie{
		Name: csrfCookie(c.txn), Value: c.csrf, Path: basePath(c.issuer) + PathAuthorize, MaxAge: int(consentTTL.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil || isHTTPS(c.issuer),
	})
	s.showConsent(w, c, http.StatusOK, "")
}

// csrfCookie names the cookie of one consent page, so two pages open in
// one browser do not overwrite each other's.
func csrfCookie(txn string) string { return "juju_consent_" + txn[:12] }

func isHTTPS(u string) bool { return len(u) > 8 && u[:8] == "https://" }

// authorizeDecide takes the consent form: the CSRF token (field and
// cookie), then deny, or the pairing code.
func (s *Server) authorizeDecide(w http.ResponseWriter, r *http.Request, base string) {
	if err := r.ParseForm(); err != nil {
		errorPage(w, http.StatusBadRequest, "The form could not be read. Start again from the application.")
		return
	}
	f := r.PostForm
	c := s.consents.get(f.Get("txn"))
	if c == nil || c.issuer != base {
		errorPage(w, http.StatusBadRequest, "This authorization page expired or was already used. Start again from the application; juju serve will print a new code.")
		return
	}
	cookie, err := r.Cookie(csrfCookie(c.txn))
	if err != nil || !equal(cookie.Value, c.csrf) || !equal(f.Get("csrf"), c.csrf) {
		errorPage(w, http.StatusForbidden, "This form was not sent from juju's authorization page. Start again from the application.")
		return
	}
	if f.Get("action") != "allow" {
		s.consents.drop(c.txn)
		s.log.Info("the owner denied an OAuth client", "client", c.clientID)
		redirectTo(w, r, c.redirect, url.Values{"error": {errAccessDenied}, "error_description": {"the owner denied access"}}, c.state, base)
		return
	}
	switch res, left := s.consents.try(c, f.Get("code")); res {
	case codeLocked:
		errorPage(w, http.StatusTooManyRequests, "Too many wrong pairing codes lately: juju takes no more for a few minutes.")
	case codeSpent:
		s.log.Warn("an OAuth consent page took too many wrong pairing codes", "client", c.clientID)
		errorPage(w, http.StatusForbidden, "Too many wrong codes for this page. Start again from the application; juju serve will print a new code.")
	case codeWrong:
		s.log.Info("a wrong pairing code was typed", "client", c.clientID, "tries_left", left)
		s.showConsent(w, c, http.StatusUnauthorized, "That is not the code juju serve printed for this page. "+strconv.Itoa(left)+" tries left.")
	case codeRight:
		code := s.codes.issue(c, s.now())
		s.log.Info("the owner allowed an OAuth client", "client", c.clientID)
		redirectTo(w, r, c.redirect, url.Values{"code": {code}}, c.state, base)
	}
}

// redirectTo sends the browser back to the client's redirect URI with the
// given parameters, the state and the issuer (RFC 9207).
func redirectTo(w http.ResponseWriter, r *http.Request, redirect string, params url.Values, state, issuer string) {
	u, err := url.Parse(redirect)
	if err != nil {
		errorPage(w, http.StatusBadRequest, "The redirect_uri cannot be used.")
		return
	}
	q := u.Query()
	for k, v := range params {
		q[k] = v
	}
	if state != "" {
		q.Set("state", state)
	}
	q.Set("iss", issuer)
	u.RawQuery = q.Encode()
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}
