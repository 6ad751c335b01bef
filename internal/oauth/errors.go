package oauth

import (
	"encoding/json"
	"net/http"
)

// Error is an OAuth error answer: a code of RFC 6749 §5.2 (or RFC 7591
// §3.2.2, RFC 8707), a description for the developer, and the HTTP status.
// Descriptions never carry a secret the client sent.
type Error struct {
	Code        string `json:"error"`
	Description string `json:"error_description,omitempty"`
	Status      int    `json:"-"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Description }

// OAuth error codes used here.
const (
	errInvalidRequest      = "invalid_request"
	errInvalidClient       = "invalid_client"
	errInvalidGrant        = "invalid_grant"
	errUnsupportedGrant    = "unsupported_grant_type"
	errUnsupportedResponse = "unsupported_response_type"
	errAccessDenied        = "access_denied"
	errInvalidTarget       = "invalid_target"
	errInvalidRedirectURI  = "invalid_redirect_uri"
	errInvalidMetadata     = "invalid_client_metadata"
	errTemporarily         = "temporarily_unavailable"
)

func oauthErr(status int, code, desc string) *Error {
	return &Error{Code: code, Description: desc, Status: status}
}

// writeJSON answers with a JSON document, never cached.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// writeError answers with an OAuth error document. A 429 says when to
// retry: every rate here counts over a minute.
func writeError(w http.ResponseWriter, e *Error) {
	if e.Status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "60")
	}
	writeJSON(w, e.Status, e)
}
