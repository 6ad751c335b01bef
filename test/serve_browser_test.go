package test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// formOrigin is the Origin header a browser sends with the POST of a form
// on a page served with the given Referrer-Policy, from the page's origin
// to target's: the Fetch standard's "append a request Origin header" for
// a request that is neither CORS nor GET. The default policy is
// strict-origin-when-cross-origin.
func formOrigin(policy, pageOrigin, target string) string {
	page, _ := url.Parse(pageOrigin)
	to, _ := url.Parse(target)
	// A header may list policies; the last one the browser knows wins.
	known := ""
	for p := range strings.SplitSeq(policy, ",") {
		switch p = strings.ToLower(strings.TrimSpace(p)); p {
		case "no-referrer", "no-referrer-when-downgrade", "same-origin", "origin",
			"strict-origin", "origin-when-cross-origin", "strict-origin-when-cross-origin", "unsafe-url":
			known = p
		}
	}
	switch known {
	case "no-referrer":
		return "null"
	case "", "no-referrer-when-downgrade", "strict-origin", "strict-origin-when-cross-origin":
		if page.Scheme == "https" && to.Scheme != "https" {
			return "null"
		}
	case "same-origin":
		if page.Scheme != to.Scheme || page.Host != to.Host {
			return "null"
		}
	}
	return page.Scheme + "://" + page.Host
}

// The consent form's POST is same-origin and must carry the page's own
// Origin under the policy juju serves, whether the page was reached on
// loopback or through the tunnel: a browser that sends "Origin: null" is
// refused by the front (DNS rebinding protection), and nobody could ever
// allow a client. formOrigin is checked against the standard's cases
// first, so that the helper the OAuth tests submit with cannot hide that.
func TestServeConsentFormCarriesItsOrigin(t *testing.T) {
	for _, c := range []struct{ policy, page, target, want string }{
		{"no-referrer", "http://127.0.0.1:7", "http://127.0.0.1:7/authorize", "null"},
		{"same-origin", "http://127.0.0.1:7", "http://127.0.0.1:7/authorize", "http://127.0.0.1:7"},
		{"same-origin", "http://127.0.0.1:7", "https://client.example/cb", "null"},
		{"", "https://t.example", "http://127.0.0.1:7/x", "null"},
		{"", "https://t.example", "https://t.example/authorize", "https://t.example"},
		{"no-referrer, same-origin", "http://a:1", "http://a:1/x", "http://a:1"},
	} {
		if got := formOrigin(c.policy, c.page, c.target); got != c.want {
			t.Errorf("formOrigin(%q, %s → %s) = %q, want %q", c.policy, c.page, c.target, got, c.want)
		}
	}

	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	srv := startServe(t, root, "--public-url", "https://tunnel.example")
	redirect := "https://client.example/cb"
	id := registerClient(t, srv, redirect)
	for _, base := range []string{srv.base, "https://tunnel.example"} {
		_, challenge := pkcePair()
		q := url.Values{"response_type": {"code"}, "client_id": {id}, "redirect_uri": {redirect},
			"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "state": {"s"}}
		req, _ := http.NewRequest("GET", srv.base+"/authorize?"+q.Encode(), nil)
		req.Host = strings.TrimPrefix(strings.TrimPrefix(base, "http://"), "https://")
		res, err := noRedirects.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		policy := res.Header.Get("Referrer-Policy")
		origin := formOrigin(policy, base, base+"/authorize")
		if origin == "null" {
			t.Errorf("reached at %s, the consent page's Referrer-Policy %q makes a browser post its form with Origin: null", base, policy)
		}
		post, _ := http.NewRequest("POST", srv.base+"/authorize", strings.NewReader("txn=x"))
		post.Host = req.Host
		post.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		post.Header.Set("Origin", origin)
		res, err = noRedirects.Do(post)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		// Past the front, the stale txn gets the OAuth error page (400).
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "expired or was already used") {
			t.Errorf("the form's POST with Origin %q, reached at %s: %d %s", origin, base, res.StatusCode, body)
		}
	}
}

// pkcePair makes a PKCE verifier and its S256 challenge.
func pkcePair() (verifier, challenge string) {
	verifier = strings.Repeat("v", 20) + "-browser-verifier-0123456789abcdef"
	return verifier, s256(verifier)
}

// registerClient registers an OAuth client with one redirect URI and
// returns its id.
func registerClient(t *testing.T, srv *server, redirect string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"redirect_uris": []string{redirect}, "client_name": "e2e-browser"})
	res, err := http.Post(srv.base+"/register", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var reg struct {
		ClientID string `json:"client_id"`
	}
	if err := json.NewDecoder(res.Body).Decode(&reg); err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("register: %d %v", res.StatusCode, err)
	}
	return reg.ClientID
}

// chromium finds a Chromium to drive, or skips the test saying how to get
// one; under JUJU_BROWSER=require (make test, which installs it) a missing
// browser fails the test instead.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("JUJU_BROWSER") == "require" {
		t.Fatal("no Chromium on PATH, and JUJU_BROWSER=require: install Debian's chromium (make deps does)")
	}
	t.Skip("no Chromium on PATH: install Debian's chromium (make deps does) to run the OAuth consent in a real browser")
	return ""
}

// OAuth pairing in a real browser: headless Chromium loads the consent
// page, the owner's code is typed into it and Allow is clicked; the
// browser must land on the client's redirect URI with a code that
// exchanges for a token. This is what the tests that post the form by hand
// cannot show: the headers a browser really sends (Origin, cookies) under
// the page's own policies.
func TestServeConsentInChromium(t *testing.T) {
	bin := chromium(t)
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	t.Run("loopback", func(t *testing.T) {
		srv := startServe(t, root)
		consentInChromium(t, bin, srv, srv.base)
	})
	// Behind a proxy that mounts juju at /team/juju and strips the path
	// (--public-url http://PROXY/team/juju): the page's form posts, and its
	// cookie goes back, below the path, where the proxy routes them.
	t.Run("mounted at a path", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		public := "http://" + ln.Addr().String() + "/team/juju"
		srv := startServe(t, root, "--public-url", public)
		target, _ := url.Parse(srv.base)
		proxy := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Host = pr.In.Host
		}}
		ps := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p, ok := strings.CutPrefix(r.URL.Path, "/team/juju/")
			if !ok {
				http.NotFound(w, r)
				return
			}
			r.URL.Path, r.URL.RawPath = "/"+p, ""
			proxy.ServeHTTP(w, r)
		})}
		go ps.Serve(ln)
		t.Cleanup(func() { ps.Close() })
		consentInChromium(t, bin, srv, public)
	})
}

// consentInChromium has headless Chromium load the consent page at base,
// the owner's code typed in and Allow clicked, and exchanges the code the
// browser brings back to the client.
func consentInChromium(t *testing.T, bin string, srv *server, base string) {
	landed := make(chan url.Values, 1)
	cb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/cb" {
			select {
			case landed <- r.URL.Query():
			default:
			}
		}
		io.WriteString(w, "back at the client")
	}))
	defer cb.Close()
	redirect := cb.URL + "/cb"
	id := registerClient(t, srv, redirect)
	verifier, challenge := pkcePair()
	q := url.Values{"response_type": {"code"}, "client_id": {id}, "redirect_uri": {redirect},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "state": {"st8"}}

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	b := startChromium(t, ctx, bin)
	b.call(t, "Page.navigate", map[string]any{"url": base + "/authorize?" + q.Encode()})
	b.waitFor(t, ctx, `!!document.querySelector('input[name=code]')`)
	code, _ := srv.pairingCode(t, 1)
	b.call(t, "Runtime.evaluate", map[string]any{"expression": `document.querySelector('input[name=code]').value = '` + code +
		`'; document.querySelector('button[value=allow]').click(); true`})

	select {
	case got := <-landed:
		if got.Get("state") != "st8" || got.Get("code") == "" || got.Get("error") != "" {
			t.Fatalf("the browser came back to the client with %v", got)
		}
		form := url.Values{"grant_type": {"authorization_code"}, "client_id": {id}, "code": {got.Get("code")},
			"code_verifier": {verifier}, "redirect_uri": {redirect}}
		res, err := http.PostForm(base+"/token", form)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(body), `"access_token"`) {
			t.Fatalf("exchanging the browser's code: %d %s", res.StatusCode, body)
		}
	case <-time.After(30 * time.Second):
		page := b.eval(t, `location.href + "\n" + document.body.innerText`)
		t.Fatalf("the browser never reached the client's redirect URI; it shows:\n%s", page)
	}
}

// browser drives headless Chromium through the DevTools protocol over a
// pipe (--remote-debugging-pipe: NUL-terminated JSON on fds 3 and 4), on
// one page target.
type browser struct {
	in      io.Writer
	out     *bufio.Reader
	id      int
	session string
}

func startChromium(t *testing.T, ctx context.Context, bin string) *browser {
	t.Helper()
	cmdR, cmdW, err := os.Pipe() // juju's commands → Chromium's fd 3
	if err != nil {
		t.Fatal(err)
	}
	resR, resW, err := os.Pipe() // Chromium's fd 4 → answers
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-extensions", "--disable-background-networking", "--user-data-dir="+t.TempDir(),
		"--remote-debugging-pipe", "about:blank")
	cmd.ExtraFiles = []*os.File{cmdR, resW}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cmdR.Close()
	resW.Close()
	t.Cleanup(func() {
		cmdW.Close()
		cmd.Process.Kill()
		cmd.Wait()
		resR.Close()
	})
	b := &browser{in: cmdW, out: bufio.NewReader(resR)}
	var targets struct {
		TargetInfos []struct{ TargetID, Type string } `json:"targetInfos"`
	}
	b.decode(t, b.call(t, "Target.getTargets", nil), &targets)
	for _, ti := range targets.TargetInfos {
		if ti.Type == "page" {
			var att struct{ SessionID string }
			b.decode(t, b.call(t, "Target.attachToTarget", map[string]any{"targetId": ti.TargetID, "flatten": true}), &att)
			b.session = att.SessionID
			return b
		}
	}
	t.Fatalf("Chromium has no page target:\n%s", stderr.String())
	return nil
}

// call sends a command (to the page, once attached) and returns its result,
// skipping the events read meanwhile.
func (b *browser) call(t *testing.T, method string, params any) json.RawMessage {
	t.Helper()
	b.id++
	msg := map[string]any{"id": b.id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if b.session != "" {
		msg["sessionId"] = b.session
	}
	data, _ := json.Marshal(msg)
	if _, err := b.in.Write(append(data, 0)); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	for {
		line, err := b.out.ReadBytes(0)
		if err != nil {
			t.Fatalf("%s: Chromium stopped answering: %v", method, err)
		}
		var m struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(bytes.TrimSuffix(line, []byte{0}), &m) != nil || m.ID != b.id {
			continue
		}
		if m.Error != nil {
			t.Fatalf("%s: %s", method, m.Error)
		}
		return m.Result
	}
}

func (b *browser) decode(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
}

// eval evaluates a JavaScript expression in the page and returns its value
// as text.
func (b *browser) eval(t *testing.T, expr string) string {
	t.Helper()
	var r struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
	}
	b.decode(t, b.call(t, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}), &r)
	return fmt.Sprint(r.Result.Value)
}

// waitFor polls until expr is true in the page.
func (b *browser) waitFor(t *testing.T, ctx context.Context, expr string) {
	t.Helper()
	for ctx.Err() == nil {
		if b.eval(t, expr) == "true" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the page never showed %s; it shows:\n%s", expr, b.eval(t, `location.href + "\n" + document.body.innerText`))
}
