package oauth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
)

// random returns prefix and n random bytes, base64url.
func random(prefix string, n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return prefix + base64.RawURLEncoding.EncodeToString(b)
}

// Token prefixes, so a leaked token says what it is.
const (
	accessPrefix  = "jja_"
	refreshPrefix = "jjr_"
	codePrefix    = "jjc_"
	clientPrefix  = "c_"
	grantPrefix   = "g_"
)

// hash is what the store keeps of a token: hex SHA-256. Tokens are 32
// random bytes, so a fast hash is enough.
func hash(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}

// equal compares two secrets in constant time.
func equal(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// s256 is the PKCE S256 transform of a verifier.
func s256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// pkceValue reports whether s is a valid PKCE verifier or S256 challenge
// (RFC 7636 §4.1: 43 to 128 unreserved characters).
func pkceValue(s string) bool {
	if len(s) < 43 || len(s) > 128 {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
			return false
		}
	}
	return true
}
