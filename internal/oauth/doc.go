// Package oauth is the OAuth 2.1 authorization server of `juju serve`, for
// MCP clients that only do OAuth (claude.ai and ChatGPT connectors) and for
// remote use through a tunnel. It imports nothing of juju's host.
//
// It serves the protected resource metadata (RFC 9728) and the
// authorization server metadata (RFC 8414), dynamic client registration
// (RFC 7591), the authorization endpoint with PKCE S256 and exact
// redirect-URI matching, and the token endpoint (authorization code and
// refresh token grants, public clients only, resource indicators of RFC
// 8707). The owner consents on the /authorize page by typing a pairing code
// that juju prints on its terminal at that moment (Config.Notify), so a
// page reached through a public tunnel cannot be approved by whoever finds
// it.
//
// Tokens are opaque random strings (no JWT: nothing to forge, no alg=none),
// stored as SHA-256 hashes, with the clients and grants, in one JSON file in
// the owner's state directory (Store), which survives restarts and which
// `juju clients revoke` changes under a file lock; a running server notices
// the change on the next request. Authorization codes and pending consents
// live in memory only. No token, code, verifier or pairing code is ever
// logged or put in an error message.
package oauth
