package oauth

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

const testBase = "http://127.0.0.1:7777"

// rig is a Server over a temporary store, with a settable clock and the
// pairing codes it printed.
type rig struct {
	t     *testing.T
	s     *Server
	dir   string
	clock time.Time
	mu    sync.Mutex
	codes []Pairing
}

func newRig(t *testing.T) *rig {
	return newRigIn(t, t.TempDir(), "edit")
}

func newRigIn(t *testing.T, dir, mode string) *rig {
	r := &rig{t: t, dir: dir, clock: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
	r.s = New(Config{Dir: dir, Mode: mode, Roots: []string{"/home/me/src/app"}, Now: r.now, Notify: func(p Pairing) {
		r.mu.Lock()
		r.codes = append(r.codes, p)
		r.mu.Unlock()
	}})
	t.Cleanup(r.s.Close) // before the folder's removal: cleanups run last first
	return r
}

func (r *rig) now() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.clock
}

func (r *rig) advance(d time.Duration) {
	r.mu.Lock()
	r.clock = r.clock.Add(d)
	r.mu.Unlock()
}

func (r *rig) lastCode() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.codes[len(r.codes)-1].Code
}

// do serves one request; form bodies are form-encoded, others JSON.
func (r *rig) do(method, target string, body string, hdr map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if strings.HasPrefix(body, "{") {
		req.Header.Set("Content-Type", "application/json")
	} else if body != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	r.s.ServeOAuth(w, req, testBase)
	return w
}

// register registers a client with one redirect URI and returns its id.
func (r *rig) register(redirect string) string {
	r.t.Helper()
	w := r.do("POST", PathRegister, `{"client_name":"Test Client","redirect_uris":["`+redirect+`"],"token_endpoint_auth_method":"none"}`, nil)
	var out map[string]any
	json.Unmarshal(w.Body.Bytes(), &out)
	id, _ := out["client_id"].(string)
	if w.Code != 201 || id == "" {
		r.t.Fatalf("register: %d %s", w.Code, w.Body)
	}
	return id
}

const (
	testRedirect = "http://127.0.0.1:9999/callback"
	testVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-verifier"
)

// authorizeURL is a well-formed authorization request.
func authorizeURL(client string, over map[string]string) string {
	q := url.Values{
		"response_type": {"code"}, "client_id": {client}, "redirect_uri": {testRedirect},
		"code_challenge": {s256(testVerifier)}, "code_challenge_method": {"S256"},
		"state": {"st-123"}, "resource": {testBase + "/mcp"},
	}
	for k, v := range over {
		if v == "" {
			q.Del(k)
		} else {
			q.Set(k, v)
		}
	}
	return PathAuthorize + "?" + q.Encode()
}

var (
	txnRE  = regexp.MustCompile(`name="txn" value="([^"]+)"`)
	csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
)

// page is a loaded consent page.
type page struct {
	txn, csrf string
	cookie    *http.Cookie
	w         *httptest.ResponseRecorder
}

func (r *rig) open(client string) page {
	r.t.Helper()
	w := r.do("GET", authorizeURL(client, nil), "", nil)
	if w.Code != 200 {
		r.t.Fatalf("authorize: %d %s", w.Code, w.Body)
	}
	body := w.Body.String()
	p := page{w: w}
	if m := txnRE.FindStringSubmatch(body); m != nil {
		p.txn = m[1]
	}
	if m := csrfRE.FindStringSubmatch(body); m != nil {
		p.csrf = m[1]
	}
	for _, c := range w.Result().Cookies() {
		p.cookie = c
	}
	if p.txn == "" || p.csrf == "" || p.cookie == nil {
		r.t.Fatalf("consent page without its form fields or cookie: %s", body)
	}
	return p
}

// submit posts the consent form.
func (r *rig) submit(p page, code, action string) *httptest.ResponseRecorder {
	form := url.Values{"txn": {p.txn}, "csrf": {p.csrf}, "code": {code}, "action": {action}}
	req := httptest.NewRequest("POST", PathAuthorize, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(p.cookie)
	w := httptest.NewRecorder()
	r.s.ServeOAuth(w, req, testBase)
	return w
}

// authorize goes through consent and returns the authorization code.
func (r *rig) authorize(client string) string {
	r.t.Helper()
	p := r.open(client)
	w := r.submit(p, r.lastCode(), "allow")
	loc, err := url.Parse(w.Header().Get("Location"))
	if w.Code != http.StatusSeeOther || err != nil || loc.Query().Get("code") == "" {
		r.t.Fatalf("consent: %d %s %s", w.Code, w.Header().Get("Location"), w.Body)
	}
	q := loc.Query()
	if q.Get("state") != "st-123" || q.Get("iss") != testBase || !strings.HasPrefix(loc.String(), testRedirect+"?") {
		r.t.Fatalf("redirect %s", loc)
	}
	return q.Get("code")
}

// token posts to the token endpoint and decodes the answer.
func (r *rig) token(form url.Values) (int, map[string]any) {
	w := r.do("POST", PathToken, form.Encode(), nil)
	var out map[string]any
	json.Unmarshal(w.Body.Bytes(), &out)
	if w.Header().Get("Cache-Control") != "no-store" {
		r.t.Errorf("token answer without Cache-Control: no-store")
	}
	return w.Code, out
}

func exchangeForm(client, code string) url.Values {
	return url.Values{"grant_type": {"authorization_code"}, "client_id": {client}, "code": {code},
		"redirect_uri": {testRedirect}, "code_verifier": {testVerifier}, "resource": {testBase + "/mcp"}}
}

// tokens runs the whole flow and returns the access and refresh tokens.
func (r *rig) tokens(client string) (string, string) {
	r.t.Helper()
	status, out := r.token(exchangeForm(client, r.authorize(client)))
	at, _ := out["access_token"].(string)
	rt, _ := out["refresh_token"].(string)
	if status != 200 || at == "" || rt == "" || out["token_type"] != "Bearer" || out["expires_in"].(float64) > 3600 {
		r.t.Fatalf("exchange: %d %v", status, out)
	}
	return at, rt
}
