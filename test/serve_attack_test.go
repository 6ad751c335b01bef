package test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A request without the right token is refused with 401 and a challenge
// naming the resource metadata, whatever it carries: no token, near misses
// of the local token, the token in the query string or in another scheme.
// Each refused request carries a write_file whose file must not appear; the
// same call made the right way lands.
func TestServeRefusesBadTokens(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	srv := startServe(t, root, "--mode", "trusted")
	tok := srv.token
	sid := srv.initSession(t, srv.bearer())
	flip := func(s string, i int) string {
		b := []byte(s)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}
	cases := []struct {
		name, target string
		hdr          map[string]string
	}{
		{"no token", "/mcp", map[string]string{}},
		{"empty bearer", "/mcp", map[string]string{"Authorization": "Bearer "}},
		{"first character changed", "/mcp", map[string]string{"Authorization": "Bearer " + flip(tok, 0)}},
		{"last character changed", "/mcp", map[string]string{"Authorization": "Bearer " + flip(tok, len(tok)-1)}},
		{"middle character changed", "/mcp", map[string]string{"Authorization": "Bearer " + flip(tok, len(tok)/2)}},
		{"one character short", "/mcp", map[string]string{"Authorization": "Bearer " + tok[:len(tok)-1]}},
		{"one character more", "/mcp", map[string]string{"Authorization": "Bearer " + tok + "A"}},
		{"upper case", "/mcp", map[string]string{"Authorization": "Bearer " + strings.ToUpper(tok)}},
		{"no scheme", "/mcp", map[string]string{"Authorization": tok}},
		{"basic scheme", "/mcp", map[string]string{"Authorization": "Basic " + tok}},
		{"in the query", "/mcp?access_token=" + tok, map[string]string{}},
		{"in the query as token", "/mcp?token=" + tok + "&authorization=Bearer+" + tok, map[string]string{}},
		{"in another header", "/mcp", map[string]string{"X-Auth-Token": tok, "Cookie": "token=" + tok}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, modern := range []bool{false, true} {
				path := fmt.Sprintf("pwned-token-%d-%v.txt", i, modern)
				hdr := merge(map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25"}, c.hdr)
				if modern {
					hdr = merge(modernHeaders("write_file"), c.hdr)
				}
				res, body := srv.raw(t, "POST", c.target, writeCall(path, modern), hdr)
				if res.StatusCode != 401 {
					t.Fatalf("status %d, want 401: %s", res.StatusCode, body)
				}
				want := `Bearer resource_metadata="` + srv.base + `/.well-known/oauth-protected-resource"`
				if ch := res.Header.Get("WWW-Authenticate"); !strings.HasPrefix(ch, want) {
					t.Fatalf("WWW-Authenticate %q, want it to begin with %q", ch, want)
				}
				mustNotExist(t, root, path)
			}
		})
	}
	res, body := srv.raw(t, "POST", "/mcp", writeCall("landed-session.txt", false), merge(srv.bearer(), map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25"}))
	if res.StatusCode != 200 || !fileExists(root, "landed-session.txt") {
		t.Fatalf("the right call did not land: %d %s", res.StatusCode, body)
	}
	res, body = srv.raw(t, "POST", "/mcp", writeCall("landed-modern.txt", true), merge(srv.bearer(), modernHeaders("write_file")))
	if res.StatusCode != 200 || !fileExists(root, "landed-modern.txt") {
		t.Fatalf("the right stateless call did not land: %d %s", res.StatusCode, body)
	}
	if strings.Contains(srv.log.String(), tok) {
		t.Fatal("the token is in juju's log")
	}
}

// DNS rebinding: a request whose Host or Origin is not this server —
// another site, a rebound name, "null", a look-alike of 127.0.0.1 — is
// refused with 403 before its token or body is looked at.
func TestServeRefusesHostileHostAndOrigin(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	srv := startServe(t, root, "--mode", "trusted")
	sid := srv.initSession(t, srv.bearer())
	p := srv.port
	cases := []map[string]string{
		{"Origin": "https://evil.example"},
		{"Origin": "http://evil.example:" + p},
		{"Origin": "null"},
		{"Origin": "http://127.0.0.1.evil.example:" + p},
		{"Origin": "http://localhost.evil.example:" + p},
		{"Origin": "https://127.0.0.1:" + p},
		{"Origin": "http://127.0.0.1:" + p + "0"},
		{"Origin": "file://"},
		{"Host": "evil.example"},
		{"Host": "evil.example:" + p},
		{"Host": "127.0.0.1.evil.example:" + p},
		{"Host": "127.0.0.1.nip.io:" + p},
		{"Host": "localtest.me:" + p},
		{"Host": "localhost.evil.example:" + p},
		{"Host": "attacker-rebound-to-127-0-0-1.example:" + p},
		{"Host": "0.0.0.0:" + p},
		{"Host": "127.0.0.1:1"},
		{"Host": "localhost"},
		{"Host": "evil.example", "Origin": "http://evil.example"},
	}
	for i, hdr := range cases {
		t.Run(fmt.Sprint(hdr), func(t *testing.T) {
			for _, modern := range []bool{false, true} {
				path := fmt.Sprintf("pwned-host-%d-%v.txt", i, modern)
				h := merge(srv.bearer(), map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25"}, hdr)
				if modern {
					h = merge(srv.bearer(), modernHeaders("write_file"), hdr)
				}
				res, body := srv.raw(t, "POST", "/mcp", writeCall(path, modern), h)
				if res.StatusCode != 403 {
					t.Fatalf("status %d, want 403: %s", res.StatusCode, body)
				}
				mustNotExist(t, root, path)
			}
			// The discovery documents are refused too.
			if res, _ := srv.raw(t, "GET", "/.well-known/oauth-protected-resource", "", hdr); res.StatusCode != 403 {
				t.Fatalf("metadata: %d, want 403", res.StatusCode)
			}
		})
	}
	for _, ok := range []map[string]string{
		{"Host": "localhost:" + p, "Origin": "http://localhost:" + p},
		{"Host": "127.0.0.1:" + p, "Origin": "http://127.0.0.1:" + p},
	} {
		path := "landed-" + strings.ReplaceAll(ok["Host"], ":", "-") + ".txt"
		res, body := srv.raw(t, "POST", "/mcp", writeCall(path, true), merge(srv.bearer(), modernHeaders("write_file"), ok))
		if res.StatusCode != 200 || !fileExists(root, path) {
			t.Fatalf("%v: %d %s", ok, res.StatusCode, body)
		}
	}
}

// A request refused for its Host tells the owner, on juju serve's
// terminal, what usually causes it and what to do: a tunnel juju serve was
// not started for (no --public-url, or a quick tunnel's new address). Once
// per host, for at most 8 of them (a page trying DNS rebinding picks the
// hosts); an Origin refused alone is named by its own line
// (TestServeRefusedOriginTellsTheOwner), not this one. The client is told
// too, in the 403's body.
func TestServeRefusedHostTellsTheOwner(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	srv := startServe(t, root)
	res, body := srv.raw(t, "POST", "/mcp", writeCall("x.txt", true), merge(srv.bearer(), modernHeaders("write_file"),
		map[string]string{"Origin": "https://evil.example"}))
	if res.StatusCode != 403 {
		t.Fatalf("a foreign Origin: %d %s", res.StatusCode, body)
	}
	for round := range 2 {
		for i := range 12 {
			host := fmt.Sprintf("tunnel-%d.trycloudflare.com", i)
			res, body := srv.raw(t, "GET", "/.well-known/oauth-protected-resource", "", map[string]string{"Host": host})
			if res.StatusCode != 403 || !strings.Contains(body, "--public-url") {
				t.Fatalf("round %d, Host %s: %d %s", round, host, res.StatusCode, body)
			}
		}
	}
	// A line logged after every refusal: all of theirs are read by then.
	if res, body := srv.raw(t, "POST", "/register", `{"client_name":"sentinel","redirect_uris":["https://client.example/cb"]}`, nil); res.StatusCode != 201 {
		t.Fatalf("register: %d %s", res.StatusCode, body)
	}
	if !srv.logged("registered an OAuth client") {
		t.Fatalf("no registration logged:\n%s", srv.log)
	}
	var warned []string
	for line := range strings.SplitSeq(srv.log.String(), "\n") {
		if strings.Contains(line, "restart juju serve with --public-url https://HOST") {
			_, host, _ := strings.Cut(line, " host=")
			warned = append(warned, host)
		}
	}
	want := []string{}
	for i := range 8 {
		want = append(want, fmt.Sprintf("tunnel-%d.trycloudflare.com", i))
	}
	if !slices.Equal(warned, want) {
		t.Errorf("the owner was told of the refused hosts %q, want %q once each:\n%s", warned, want, srv.log)
	}

	// Started for another tunnel address: the warning names it.
	srv = startServe(t, root, "--public-url", "https://old-name.trycloudflare.com")
	srv.raw(t, "GET", "/mcp", "", map[string]string{"Host": "new-name.trycloudflare.com"})
	if !srv.logged("--public-url is https://old-name.trycloudflare.com)") {
		t.Errorf("the warning does not name the --public-url juju serve was started with:\n%s", srv.log)
	}
}

// Sessions are juju's: a forged id, an altered one, one of another server,
// or one ended with DELETE is 404 and never becomes a new session; a
// request of the session protocol without an id is 400.
func TestServeSessionIDs(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	srv := startServe(t, root, "--mode", "trusted")
	sid := srv.initSession(t, srv.bearer())
	o := startServe(t, workspace(t, nil))
	other := o.initSession(t, o.bearer())
	alter := func(i int) string {
		b := []byte(sid)
		b[i] ^= 1
		return string(b)
	}
	forged := map[string]string{
		"forged":             "juju-" + strings.Repeat("A", 43),
		"mcp-go uuid form":   "mcp-session-6f1c3c5e-8a53-4b1e-9d0e-3f1b2c3d4e5f",
		"last char altered":  alter(len(sid) - 1),
		"first char altered": alter(len(sid) - 20),
		"truncated":          sid[:len(sid)-2],
		"extended":           sid + "x",
		"another server's":   other,
		"empty-ish":          " ",
	}
	legacy := map[string]string{"Mcp-Protocol-Version": "2025-11-25"}
	for name, id := range forged {
		t.Run(name, func(t *testing.T) {
			path := "pwned-session-" + strings.ReplaceAll(name, " ", "-") + ".txt"
			for _, method := range []string{"POST", "GET", "DELETE"} {
				body := ""
				if method == "POST" {
					body = writeCall(path, false)
				}
				res, text := srv.raw(t, method, "/mcp", body, merge(srv.bearer(), legacy, map[string]string{"Mcp-Session-Id": id}))
				want := 404
				if strings.TrimSpace(id) == "" {
					want = 400
				}
				if res.StatusCode != want {
					t.Fatalf("%s: status %d, want %d: %s", method, res.StatusCode, want, text)
				}
			}
			mustNotExist(t, root, path)
		})
	}
	for _, method := range []string{"POST", "GET", "DELETE"} {
		body := ""
		if method == "POST" {
			body = writeCall("pwned-nosession.txt", false)
		}
		if res, text := srv.raw(t, method, "/mcp", body, merge(srv.bearer(), legacy)); res.StatusCode != 400 {
			t.Fatalf("%s without a session: %d, want 400: %s", method, res.StatusCode, text)
		}
	}
	mustNotExist(t, root, "pwned-nosession.txt")

	sess := merge(srv.bearer(), legacy, map[string]string{"Mcp-Session-Id": sid})
	if res, text := srv.raw(t, "POST", "/mcp", writeCall("landed.txt", false), sess); res.StatusCode != 200 || !fileExists(root, "landed.txt") {
		t.Fatalf("the live session: %d %s", res.StatusCode, text)
	}
	if res, _ := srv.raw(t, "DELETE", "/mcp", "", sess); res.StatusCode != 200 {
		t.Fatalf("DELETE: %d", res.StatusCode)
	}
	res, _ := srv.raw(t, "POST", "/mcp", writeCall("pwned-after-delete.txt", false), sess)
	if res.StatusCode != 404 {
		t.Fatalf("the session after DELETE: %d, want 404", res.StatusCode)
	}
	mustNotExist(t, root, "pwned-after-delete.txt")
}

func fileExists(root, path string) bool {
	_, err := statIn(root, path)
	return err == nil
}
