package oauth

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// newRigRoots is newRigIn with the workspace roots chosen by the test.
func newRigRoots(t *testing.T, dir, mode string, roots ...string) *rig {
	r := &rig{t: t, dir: dir, clock: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	r.s = New(Config{Dir: dir, Mode: mode, Roots: roots, Now: r.now, Notify: func(p Pairing) {
		r.mu.Lock()
		r.codes = append(r.codes, p)
		r.mu.Unlock()
	}})
	t.Cleanup(r.s.Close) // before the folder's removal: cleanups run last first
	return r
}

// TestClaimOAuthTokenBoundToRoots holds juju to SECURITY.md, "The HTTP
// transport", Stolen or forged OAuth tokens: "A token is bound to the
// resource it was issued for and to the trust mode and roots the owner
// consented to: started with another mode or other roots, juju refuses it
// and the client must ask again." A grant given with roots A (same store,
// same mode, same resource) must verify under roots A, and be refused —
// access token and refresh token — under other roots B, a superset of A
// and a subset of A. A bound() that ignored the roots would let a token
// consented for one folder open another.
func TestClaimOAuthTokenBoundToRoots(t *testing.T) {
	dir := t.TempDir()
	rootsA := []string{"/home/me/src/app", "/home/me/src/lib"}
	a := newRigRoots(t, dir, "edit", rootsA...)
	client := a.register(testRedirect)
	at, rt := a.tokens(client)
	if got, ok := a.s.Verify(at, testBase+"/mcp"); !ok || got != client {
		t.Fatal("the token is refused under the roots it was issued for")
	}
	refresh := func(r *rig, tok string) (int, map[string]any) {
		return r.token(url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {tok}, "resource": {testBase + "/mcp"}})
	}
	for name, roots := range map[string][]string{
		"other roots": {"/home/me/src/other", "/home/me/src/lib"},
		"one more":    {"/home/me/src/app", "/home/me/src/lib", "/home/me"},
		"one fewer":   {"/home/me/src/app"},
		"one other":   {"/home/me/private"},
	} {
		b := newRigRoots(t, dir, "edit", roots...)
		b.clock = a.clock
		if _, ok := b.s.Verify(at, testBase+"/mcp"); ok {
			t.Errorf("%s: an access token issued for %v is accepted for %v", name, rootsA, roots)
		}
		if status, out := refresh(b, rt); status != 400 || out["error"] != "invalid_grant" || out["access_token"] != nil {
			t.Errorf("%s: a refresh token issued for %v works for %v: %d %v", name, rootsA, roots, status, out)
		}
	}
	// The same roots again (a restart): accepted, and the refresh token,
	// never rotated by the refusals above, still works.
	same := newRigRoots(t, dir, "edit", rootsA...)
	same.clock = a.clock
	if got, ok := same.s.Verify(at, testBase+"/mcp"); !ok || got != client {
		t.Fatal("the token is refused after a restart with the same roots")
	}
	status, out := refresh(same, rt)
	at2, _ := out["access_token"].(string)
	if status != 200 || at2 == "" {
		t.Fatalf("refresh under the same roots: %d %v", status, out)
	}
	if _, ok := same.s.Verify(at2, testBase+"/mcp"); !ok {
		t.Fatal("the refreshed token is refused under the same roots")
	}
	// The refreshed token is bound too.
	other := newRigRoots(t, dir, "edit", "/home/me/src/other")
	other.clock = a.clock
	if _, ok := other.s.Verify(at2, testBase+"/mcp"); ok {
		t.Fatal("a refreshed token works under other roots")
	}
}

// TestClaimConsentPagesRateLimited holds juju to SECURITY.md, "The HTTP
// transport", A remote attacker who finds the tunnel's URL: "at most 20
// pages a minute (16 open at once) print a code, so reloading does not buy
// guesses." Twenty consent pages loaded within a minute (each closed
// straight away, so the open-pages cap is not what stops the next) print
// twenty codes; the 21st is refused with 429, no code and no cookie,
// until the first falls out of the minute — and only one more page then.
// Separately, 16 pages left open refuse the 17th, even once the minute
// has passed, until one of them is closed or expires.
func TestClaimConsentPagesRateLimited(t *testing.T) {
	refused := func(t *testing.T, r *rig, client, what string) {
		t.Helper()
		before := len(r.codes)
		w := r.do("GET", authorizeURL(client, nil), "", nil)
		if w.Code != http.StatusTooManyRequests || w.Header().Get("Location") != "" {
			t.Fatalf("%s: %d %q, want 429 and no redirect", what, w.Code, w.Header().Get("Location"))
		}
		if len(r.codes) != before {
			t.Fatalf("%s: a refused page printed a pairing code", what)
		}
		if c := w.Header().Values("Set-Cookie"); len(c) != 0 || txnRE.MatchString(w.Body.String()) {
			t.Fatalf("%s: a refused page set a cookie or holds a form: %v", what, c)
		}
	}

	t.Run("20 a minute", func(t *testing.T) {
		r := newRig(t)
		client := r.register(testRedirect)
		start := r.now()
		for i := range 20 {
			p := r.open(client) // fails the test unless 200 with a form
			if w := r.submit(p, "", "deny"); w.Code != http.StatusSeeOther {
				t.Fatalf("closing page %d: %d", i+1, w.Code)
			}
			r.advance(2 * time.Second)
		}
		if len(r.codes) != 20 {
			t.Fatalf("20 pages printed %d codes", len(r.codes))
		}
		// 40 s after the first page: the 21st page within the minute.
		refused(t, r, client, "the 21st page within a minute")
		refused(t, r, client, "the 22nd page within a minute")
		// A minute after the first page, it no longer counts: one page.
		r.advance(start.Add(time.Minute).Sub(r.now()))
		r.open(client)
		refused(t, r, client, "a second page while 19 of the minute remain")
	})

	t.Run("16 open", func(t *testing.T) {
		r := newRig(t)
		client := r.register(testRedirect)
		pages := make([]page, 0, 16)
		for range 16 {
			pages = append(pages, r.open(client))
		}
		refused(t, r, client, "the 17th open page")
		// The minute is over (loads no longer count), the 16 pages live on.
		r.advance(time.Minute + time.Second)
		refused(t, r, client, "the 17th open page a minute later")
		// Closing one makes room for one.
		r.submit(pages[0], "", "deny")
		r.open(client)
		refused(t, r, client, "the 17th open page after one closed and one opened")
		// Pages expire: the room comes back.
		r.advance(consentTTL)
		r.open(client)
	})
}

// TestClaimConsentCSRFCookieStrictHttpOnly holds juju to SECURITY.md, "The
// HTTP transport", A remote attacker who finds the tunnel's URL: "The form
// is CSRF-protected (a field that must equal a SameSite=Strict, HttpOnly
// cookie set with the page)". The consent page sets exactly one cookie,
// whose Set-Cookie carries SameSite=Strict and HttpOnly, scoped to
// /authorize, holding the value of the form's csrf field (and not the
// pairing code). A cookie set Lax or None would travel with a cross-site
// form post; one without HttpOnly could be read by a script.
func TestClaimConsentCSRFCookieStrictHttpOnly(t *testing.T) {
	for _, base := range []string{testBase, "https://tunnel.example"} {
		t.Run(base, func(t *testing.T) {
			r := newRig(t)
			client := r.register(testRedirect)
			req := authorizeURL(client, map[string]string{"resource": base + "/mcp"})
			w := httptestServe(r, "GET", req, base)
			if w.Code != 200 {
				t.Fatalf("authorize: %d %s", w.Code, w.Body)
			}
			raw := w.Header().Values("Set-Cookie")
			if len(raw) != 1 {
				t.Fatalf("the consent page sets %d cookies, want 1: %q", len(raw), raw)
			}
			attrs := map[string]string{}
			for i, part := range strings.Split(raw[0], ";") {
				if i == 0 {
					continue
				}
				k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
				attrs[strings.ToLower(k)] = v
			}
			if v, ok := attrs["samesite"]; !ok || !strings.EqualFold(v, "Strict") {
				t.Errorf("the CSRF cookie is not SameSite=Strict: %q", raw[0])
			}
			if _, ok := attrs["httponly"]; !ok {
				t.Errorf("the CSRF cookie is not HttpOnly: %q", raw[0])
			}
			if attrs["path"] != PathAuthorize {
				t.Errorf("the CSRF cookie's path is %q, want %s", attrs["path"], PathAuthorize)
			}
			cookies := w.Result().Cookies()
			if len(cookies) != 1 || cookies[0].SameSite != http.SameSiteStrictMode || !cookies[0].HttpOnly {
				t.Fatalf("parsed cookie %+v", cookies)
			}
			m := csrfRE.FindStringSubmatch(w.Body.String())
			if m == nil || cookies[0].Value != m[1] {
				t.Fatalf("the cookie does not hold the form's csrf field")
			}
			code := r.lastCode()
			if strings.Contains(raw[0], code) || strings.Contains(raw[0], strings.ReplaceAll(code, "-", "")) {
				t.Fatal("the cookie holds the pairing code")
			}
		})
	}
}

// httptestServe serves one request of target as reached through base.
func httptestServe(r *rig, method, target, base string) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	r.s.ServeOAuth(w, httptest.NewRequest(method, target, nil), base)
	return w
}
