package oauth

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A native client's loopback redirect URI takes any port at the time of
// the request (RFC 8252 §7.3): VS Code registers http://127.0.0.1/ and
// http://127.0.0.1:33418/ and redirects to another port when 33418 is
// taken, and Claude Code's metadata names http://localhost/callback.
// Only the port may differ, only for http on a loopback host, and the
// code is bound to the URI the request named.
func TestAuthorizeLoopbackTakesAnyPort(t *testing.T) {
	r := newRig(t)
	w := r.do("POST", PathRegister, `{"client_name":"Visual Studio Code","redirect_uris":["https://vscode.dev/redirect",`+
		`"http://127.0.0.1/","http://127.0.0.1:33418/","http://localhost/callback","http://[::1]/cb"]}`, nil)
	if w.Code != http.StatusCreated {
		t.Fatalf("register: %d %s", w.Code, w.Body)
	}
	client := strings.Split(strings.Split(w.Body.String(), `"client_id":"`)[1], `"`)[0]
	for redirect, want := range map[string]int{
		"http://127.0.0.1:33418/":          200,
		"http://127.0.0.1:59656/":          200,
		"http://localhost:8080/callback":   200,
		"http://[::1]:4000/cb":             200,
		"http://127.0.0.1:59656/other":     400, // another path
		"http://127.0.0.1:59656/?x=1":      400, // another query
		"http://127.0.0.2:59656/":          400, // another host
		"http://localhost:8080/":           400,
		"http://LOCALHOST:8080/callback":   400, // the host as written
		"http://127.0.0.1:0/":              400, // no real port
		"https://vscode.dev:8443/redirect": 400, // https matches exactly
		"https://127.0.0.1:59656/":         400,
	} {
		w := r.do("GET", authorizeURL(client, map[string]string{"redirect_uri": redirect}), "", nil)
		if w.Code != want {
			t.Errorf("redirect_uri %s: %d, want %d", redirect, w.Code, want)
		}
	}

	// The whole flow on a port not registered: the browser goes there, and
	// the code is exchanged for that URI alone.
	const redirect = "http://127.0.0.1:59656/"
	allowed := func() string {
		t.Helper()
		w := r.do("GET", authorizeURL(client, map[string]string{"redirect_uri": redirect}), "", nil)
		if w.Code != http.StatusOK {
			t.Fatalf("authorize for %s: %d", redirect, w.Code)
		}
		p := page{w: w, txn: txnRE.FindStringSubmatch(w.Body.String())[1], csrf: csrfRE.FindStringSubmatch(w.Body.String())[1]}
		for _, c := range w.Result().Cookies() {
			p.cookie = c
		}
		if got := r.codes[len(r.codes)-1].RedirectHost; got != "127.0.0.1:59656" {
			t.Errorf("the owner is told the browser goes to %q", got)
		}
		w = r.submit(p, r.lastCode(), "allow")
		loc, _ := url.Parse(w.Header().Get("Location"))
		if w.Code != http.StatusSeeOther || !strings.HasPrefix(loc.String(), redirect+"?") {
			t.Fatalf("consent: %d, to %s", w.Code, loc)
		}
		return loc.Query().Get("code")
	}
	form := exchangeForm(client, allowed())
	form.Set("redirect_uri", "http://127.0.0.1:33418/")
	if status, out := r.token(form); status != 400 || out["error"] != errInvalidGrant {
		t.Errorf("exchange for another port: %d %v", status, out)
	}
	form = exchangeForm(client, allowed())
	form.Set("redirect_uri", redirect)
	if status, out := r.token(form); status != 200 || out["access_token"] == nil {
		t.Errorf("exchange: %d %v", status, out)
	}
}
