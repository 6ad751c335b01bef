package oauth

import (
	"net/http"
	"net/url"
	"strings"
)

// resourceMetadata serves RFC 9728's document: this MCP endpoint is a
// protected resource, and this server is its authorization server.
func (s *Server) resourceMetadata(w http.ResponseWriter, r *http.Request, base string) {
	if !getOnly(w, r) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"resource":                 base + resourcePath,
		"authorization_servers":    []string{base},
		"bearer_methods_supported": []string{"header"},
		"resource_name":            "juju",
	})
}

// serverMetadata serves RFC 8414's document.
func (s *Server) serverMetadata(w http.ResponseWriter, r *http.Request, base string) {
	if !getOnly(w, r) {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                         base,
		"authorization_endpoint":                         base + PathAuthorize,
		"token_endpoint":                                 base + PathToken,
		"registration_endpoint":                          base + PathRegister,
		"response_types_supported":                       []string{"code"},
		"response_modes_supported":                       []string{"query"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":               []string{"S256"},
		"token_endpoint_auth_methods_supported":          []string{"none"},
		"scopes_supported":                               []string{},
		"authorization_response_iss_parameter_supported": true,
	})
}

// getOnly answers 405 to anything but GET and HEAD.
func getOnly(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	return false
}

// isResource reports whether a resource indicator (RFC 8707) names this
// server's MCP endpoint as reached at base: the same scheme and host, and
// base's path followed by /mcp (or by nothing).
func isResource(resource, base string) bool {
	u, err := url.Parse(resource)
	b, err2 := url.Parse(base)
	if err != nil || err2 != nil || u.User != nil || u.RawQuery != "" || u.Fragment != "" || strings.Contains(resource, "#") {
		return false
	}
	if !strings.EqualFold(u.Scheme, b.Scheme) || !strings.EqualFold(u.Host, b.Host) {
		return false
	}
	return u.Path == b.Path+resourcePath || u.Path == b.Path || u.Path == b.Path+"/"
}
