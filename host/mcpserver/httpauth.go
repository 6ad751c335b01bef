package mcpserver

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"
)

// Authorizer is the OAuth 2.1 authorization server served beside /mcp
// (internal/oauth). The HTTP front routes its endpoints to it, after the
// Host and Origin check, and asks it about bearer tokens that are not the
// local token.
type Authorizer interface {
	// Owns reports whether path is one of its endpoints.
	Owns(path string) bool
	// ServeOAuth serves a request to one of its endpoints; base is this
	// server's URL as the client reached it (the issuer).
	ServeOAuth(w http.ResponseWriter, r *http.Request, base string)
	// Verify returns the OAuth client an access token was issued to, when
	// the token is live and was issued for resource.
	Verify(token, resource string) (client string, ok bool)
	// Valid reports what Verify would, without recording a use: whether
	// the token behind an open session is still live.
	Valid(token, resource string) bool
	// Live reports whether an OAuth client may still obtain access (it
	// was not revoked): juju serve ends the background jobs of one that
	// may not.
	Live(client string) bool
}

// localPrincipal is the principal of requests with the local token: the
// owner's own clients, as trusted as a client that runs `juju stdio`.
const localPrincipal = "local"

// authenticator checks the bearer token of a request to /mcp.
type authenticator struct {
	local [sha256.Size]byte // the local token's hash
	oauth Authorizer        // may be nil
}

func newAuthenticator(localToken string, oauth Authorizer) authenticator {
	return authenticator{local: sha256.Sum256([]byte(localToken)), oauth: oauth}
}

// oauthPrincipal starts the principal of an OAuth client's requests,
// followed by its client id.
const oauthPrincipal = "oauth:"

// check returns the request's principal — localPrincipal or
// "oauth:<client id>" — or "" when the request carries no valid token;
// presented says whether it carried one at all. Only the Authorization
// header counts: a token in the query string is never read.
func (a authenticator) check(r *http.Request, resource string) (principal string, presented bool) {
	tok, presented := bearer(r)
	if tok == "" {
		return "", presented
	}
	// Hashing first makes the comparison constant-time whatever the
	// lengths.
	sum := sha256.Sum256([]byte(tok))
	if subtle.ConstantTimeCompare(sum[:], a.local[:]) == 1 {
		return localPrincipal, true
	}
	if a.oauth != nil {
		if client, ok := a.oauth.Verify(tok, resource); ok {
			return oauthPrincipal + client, true
		}
	}
	return "", true
}

// bearer returns the token of the request's one Authorization header, when
// it is "Bearer <token>".
func bearer(r *http.Request) (tok string, presented bool) {
	vals := r.Header.Values("Authorization")
	if len(vals) == 0 {
		return "", false
	}
	if len(vals) > 1 {
		return "", true
	}
	scheme, tok, ok := strings.Cut(vals[0], " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || tok == "" || strings.ContainsAny(tok, " \t") {
		return "", true
	}
	return tok, true
}

// unauthorized answers 401 with the challenge that leads an OAuth client
// to the protected resource metadata (RFC 9728 §5.1).
func unauthorized(w http.ResponseWriter, base string, presented bool) {
	challenge := `Bearer resource_metadata="` + base + prmPath + `"`
	desc := "this server needs a bearer token: the local token (juju token) or an OAuth access token"
	code := "invalid_request"
	if presented {
		challenge += `, error="invalid_token"`
		desc = "the bearer token is not valid for this server (wrong, expired or revoked)"
		code = "invalid_token"
	}
	w.Header().Set("WWW-Authenticate", challenge)
	writeJSON(w, http.StatusUnauthorized, map[string]string{"error": code, "error_description": desc})
}

// prmPath is where OAuth clients find the protected resource metadata.
const prmPath = "/.well-known/oauth-protected-resource"

// principalKey carries the authenticated principal of an HTTP request.
type principalKey struct{}

func withPrincipal(ctx context.Context, p string) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// principalOf returns the principal of an HTTP request's context, or "" for
// stdio.
func principalOf(ctx context.Context) string {
	p, _ := ctx.Value(principalKey{}).(string)
	return p
}
