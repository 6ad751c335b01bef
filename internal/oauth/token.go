package oauth

import (
	"errors"
	"mime"
	"net/http"
	"net/url"
	"slices"
)

// tokenResponse is the token endpoint's answer (RFC 6749 §5.1).
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
}

// serveToken is the token endpoint: form-encoded POST, public clients,
// the authorization code (with PKCE) and refresh token grants. Only the
// body is read: a code or token in the URL is never looked at.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request, base string) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
		writeError(w, oauthErr(400, errInvalidRequest, "send the token request as application/x-www-form-urlencoded"))
		return
	}
	if err := r.ParseForm(); err != nil {
		writeError(w, oauthErr(400, errInvalidRequest, "the token request could not be read"))
		return
	}
	f := r.PostForm
	for k, v := range f {
		if len(v) > 1 {
			writeError(w, oauthErr(400, errInvalidRequest, "parameter "+k+" is repeated"))
			return
		}
	}
	if f.Get("client_id") == "" {
		writeError(w, oauthErr(401, errInvalidClient, "client_id is required (clients of this server are public)"))
		return
	}
	// A client_id the store does not hold (revoked by juju clients revoke,
	// or never registered) is an unknown client: invalid_client (RFC 6749
	// §5.2), not invalid_grant. An MCP client reading invalid_grant drops
	// its tokens but keeps its registration and sends the owner to
	// /authorize with the dead client_id, which can only show an error
	// page; reading invalid_client, it registers again and the owner sees
	// the consent page. The store as last read, as /authorize reads it: no
	// lock, so a stranger's made-up client_ids cost no more than their
	// made-up tokens.
	if d, err := s.store.current(); err == nil && d.client(f.Get("client_id")) == nil {
		writeError(w, oauthErr(401, errInvalidClient, "this client_id is not registered with juju: it was revoked (juju clients revoke) or never registered; register again"))
		return
	}
	var res *tokenResponse
	var e *Error
	switch f.Get("grant_type") {
	case "authorization_code":
		res, e = s.exchange(f, base)
	case "refresh_token":
		res, e = s.refresh(f, base)
	case "":
		e = oauthErr(400, errInvalidRequest, "grant_type is required")
	default:
		e = oauthErr(400, errUnsupportedGrant, "grant_type must be authorization_code or refresh_token")
	}
	if e != nil {
		writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

var errBadGrant = oauthErr(400, errInvalidGrant, "the authorization code is unknown, expired or already used")

// exchange trades an authorization code for tokens: one use, the same
// client and redirect URI, the PKCE verifier, this server as resource.
func (s *Server) exchange(f url.Values, base string) (*tokenResponse, *Error) {
	code, verifier := f.Get("code"), f.Get("code_verifier")
	if code == "" || verifier == "" {
		return nil, oauthErr(400, errInvalidRequest, "code and code_verifier are required")
	}
	ac, replay, gave := s.codes.take(code)
	if ac == nil {
		return nil, errBadGrant
	}
	if replay {
		if gave != "" {
			s.revokeGrant(gave, "an authorization code was used twice")
		}
		return nil, errBadGrant
	}
	now := s.now()
	switch {
	case !ac.expires.After(now) || ac.client != f.Get("client_id"):
		return nil, errBadGrant
	case f.Has("redirect_uri") && f.Get("redirect_uri") != ac.redirect, ac.explicit && !f.Has("redirect_uri"):
		return nil, oauthErr(400, errInvalidGrant, "redirect_uri does not match the authorization request")
	case !pkceValue(verifier) || !equal(s256(verifier), ac.challenge):
		return nil, oauthErr(400, errInvalidGrant, "code_verifier does not match the code_challenge")
	case f.Has("resource") && (!isResource(f.Get("resource"), base) || base+resourcePath != ac.resource):
		return nil, oauthErr(400, errInvalidTarget, "resource must be this server's MCP endpoint, "+ac.resource)
	}
	res, g, e := s.grant(ac)
	if e != nil {
		return nil, e
	}
	if s.codes.gave(ac, g) {
		s.revokeGrant(g, "an authorization code was used twice")
		return nil, errBadGrant
	}
	return res, nil
}

// grant stores a new grant for an exchanged code.
func (s *Server) grant(ac *authCode) (*tokenResponse, string, *Error) {
	now := s.now().UTC()
	access, refresh := random(accessPrefix, 32), random(refreshPrefix, 32)
	g := &grant{
		ID: random(grantPrefix, 12), Client: ac.client, Resource: ac.resource,
		Mode: s.cfg.Mode, Roots: slices.Clone(s.cfg.Roots), Created: now,
		Refresh: hashed{Hash: hash(refresh), Expires: now.Add(RefreshTTL)},
		Access:  []hashed{{Hash: hash(access), Expires: now.Add(AccessTTL)}},
	}
	err := s.store.update(func(d *db) error {
		c := d.client(ac.client)
		if c == nil {
			return errBadGrant // revoked while the owner was consenting
		}
		c.LastUsed = now
		d.Grants = append(d.Grants, g)
		return nil
	})
	if e := s.storeError(err); e != nil {
		return nil, "", e
	}
	s.log.Info("issued OAuth tokens", "client", ac.client, "grant", g.ID)
	return &tokenResponse{AccessToken: access, TokenType: "Bearer", ExpiresIn: int(AccessTTL.Seconds()), RefreshToken: refresh}, g.ID, nil
}

// maxRetired bounds the rotated refresh tokens a grant remembers.
const maxRetired = 64

// maxAccess bounds the access tokens a grant keeps: a refresh issues one,
// and past these the oldest stops working. A client uses its newest; the
// few before it cover requests still in flight with them.
const maxAccess = 4

// refreshesPerMinute bounds one client's refreshes. A client refreshes
// about once an hour, when its access token expires; each refresh
// rewrites the store, so a client refreshing in a loop would have juju
// write and sync a file as fast as it asks.
const refreshesPerMinute = 10

// errSlowDown refuses a refresh past refreshesPerMinute. The refresh
// token is not used up: the same one works a minute later.
var errSlowDown = oauthErr(http.StatusTooManyRequests, errTemporarily,
	"this client has refreshed its tokens too often in the last minute; retry in a minute with the same refresh token, which is still valid")

// refresh rotates a refresh token: the old one is retired (presenting it
// again revokes the grant), a new one and a new access token are issued.
func (s *Server) refresh(f url.Values, base string) (*tokenResponse, *Error) {
	rt := f.Get("refresh_token")
	if rt == "" {
		return nil, oauthErr(400, errInvalidRequest, "refresh_token is required")
	}
	if f.Has("resource") && !isResource(f.Get("resource"), base) {
		return nil, oauthErr(400, errInvalidTarget, "resource must be this server's MCP endpoint, "+base+resourcePath)
	}
	h := hash(rt)
	if !s.knownRefresh(h) {
		return nil, oauthErr(400, errInvalidGrant, "the refresh token is not valid")
	}
	now := s.now().UTC()
	access, refresh := random(accessPrefix, 32), random(refreshPrefix, 32)
	var e *Error
	var reused string
	err := s.store.update(func(d *db) error {
		for _, g := range d.Grants {
			if slices.Contains(g.Retired, h) {
				reused = g.ID
				d.dropGrant(g.ID)
				return nil
			}
			if g.Refresh.Hash != h {
				continue
			}
			switch {
			case g.Client != f.Get("client_id") || !g.Refresh.Expires.After(now) || d.client(g.Client) == nil:
				e = oauthErr(400, errInvalidGrant, "the refresh token is not valid")
			case g.Resource != base+resourcePath:
				e = oauthErr(400, errInvalidGrant, "the refresh token was issued for "+g.Resource)
			case !s.bound(g):
				e = oauthErr(400, errInvalidGrant, "the grant was for another workspace or trust mode; authorize again")
			}
			if e == nil && !s.refreshes.allow(g.Client) {
				e = errSlowDown
			}
			if e != nil {
				return errNoChange
			}
			g.Retired = append(g.Retired, g.Refresh.Hash)
			if len(g.Retired) > maxRetired {
				g.Retired = g.Retired[len(g.Retired)-maxRetired:]
			}
			g.Refresh = hashed{Hash: hash(refresh), Expires: now.Add(RefreshTTL)}
			g.Access = append(g.Access, hashed{Hash: hash(access), Expires: now.Add(AccessTTL)})
			if len(g.Access) > maxAccess {
				g.Access = slices.Clone(g.Access[len(g.Access)-maxAccess:])
			}
			d.client(g.Client).LastUsed = now
			return nil
		}
		e = oauthErr(400, errInvalidGrant, "the refresh token is not valid")
		return errNoChange
	})
	if se := s.storeError(err); se != nil {
		return nil, se
	}
	if reused != "" {
		s.log.Warn("a rotated refresh token was presented again: revoked its grant", "grant", reused)
		return nil, oauthErr(400, errInvalidGrant, "the refresh token was already used; the grant is revoked")
	}
	if e != nil {
		return nil, e
	}
	return &tokenResponse{AccessToken: access, TokenType: "Bearer", ExpiresIn: int(AccessTTL.Seconds()), RefreshToken: refresh}, nil
}

// knownRefresh reports whether the store holds the refresh token of hash
// h, live or retired, as last read (re-read when the file changed): only
// then does a refresh take the store's lock and read the file afresh. The
// token endpoint is open to anyone who reaches a tunnel, and a made-up
// token once cost a lock and a decoding of the whole store, which a
// stranger can fill with 2 MB of registrations: a refresh flood held the
// lock that juju clients revoke and the clients' own refreshes wait for.
// A store that cannot be read says yes, and update reports the error.
func (s *Server) knownRefresh(h string) bool {
	d, err := s.store.current()
	if err != nil {
		return true
	}
	for _, g := range d.Grants {
		if g.Refresh.Hash == h || slices.Contains(g.Retired, h) {
			return true
		}
	}
	return false
}

// errNoChange makes Store.update return without writing.
var errNoChange = errors.New("no change")

// storeError turns an update's error into an OAuth answer.
func (s *Server) storeError(err error) *Error {
	var oe *Error
	switch {
	case err == nil || errors.Is(err, errNoChange):
		return nil
	case errors.As(err, &oe):
		return oe
	default:
		s.log.Error("updating the OAuth store", "err", err)
		return oauthErr(500, "server_error", "juju could not store the grant; see its log")
	}
}

// revokeGrant drops a grant and says why.
func (s *Server) revokeGrant(id, why string) {
	err := s.store.update(func(d *db) error {
		d.dropGrant(id)
		return nil
	})
	s.log.Warn("revoked an OAuth grant: "+why, "grant", id, "err", err)
}

// bound reports whether a grant was given for the mode and roots served
// now.
func (s *Server) bound(g *grant) bool {
	return g.Mode == s.cfg.Mode && slices.Equal(g.Roots, s.cfg.Roots)
}
