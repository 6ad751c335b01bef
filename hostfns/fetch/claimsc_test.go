package fetch

import (
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// Credentials written in a URL are refused on every hop, not only in the
// first URL: a redirect to user:password@ (or a bare user@, as a token is
// often written) of the same allowed server is not followed, and no
// Authorization header is ever sent.
func TestRedirectWithCredentialsRefused(t *testing.T) {
	var authorized atomic.Int32
	var s *server
	s = newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			authorized.Add(1)
		}
		switch r.URL.Path {
		case "/to-password":
			http.Redirect(w, r, "https://user:pw@"+s.hostport()+"/end", http.StatusFound)
		case "/to-user":
			http.Redirect(w, r, "https://ghp_token@"+s.hostport()+"/end", http.StatusFound)
		case "/end":
			io.WriteString(w, "followed")
		}
	}))
	f := testFetcher(s, s.hostport())
	for _, path := range []string{"/to-password", "/to-user"} {
		_, body, aerr := f.call(t, abi.FetchRequest{URL: s.URL + path})
		wantCode(t, aerr, abi.InvalidArgument, "credentials")
		if strings.Contains(body, "followed") {
			t.Errorf("%s: the redirect was followed", path)
		}
	}
	if n := authorized.Load(); n != 0 {
		t.Errorf("the server got %d requests with credentials", n)
	}
}
