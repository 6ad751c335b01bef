package test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// The audit keeps every URL a fetch sent whole, a longer one (refused)
// cut with its length and SHA-256, and counts the fetches of a call past
// the 16 it lists, with their hosts, in --json and in text.
func TestFetchAuditKeepsEveryFetch(t *testing.T) {
	s := newWebServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	trustCert(t, s.Certificate().Raw)
	home := fetchHome(t, true, s.hostport())
	installForTest(t, home, "plugins/testplugins/fetcher", []string{"net.fetch"})
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	sess := startHome(t, home, root, "--mode", "trusted")

	if got := sess.ok("test_fetcher", map[string]any{"url": s.URL + "/exfil", "times": 40}); got != "40 of 40 fetches answered" {
		t.Fatalf("test_fetcher: %q", got)
	}
	long := s.URL + "/q?data=" + strings.Repeat("A", 7000) + "TAIL"
	sess.ok("fetch_url", map[string]any{"url": long})
	// fetch_url's schema refuses it first; a plugin can ask.
	tooLong := s.URL + "/q?data=" + strings.Repeat("B", 9000)
	if got := sess.ok("test_fetcher", map[string]any{"url": tooLong, "times": 1}); got != "0 of 1 fetches answered" {
		t.Fatalf("test_fetcher: %q", got)
	}
	tooLong += "?i=0"

	out := juju(t, home, t.TempDir(), "audit", "--json", "--root", root)
	var recs []struct {
		Tool    string
		Fetches []struct {
			URL      string `json:"url"`
			URLWhole *struct {
				Bytes  int    `json:"bytes"`
				SHA256 string `json:"sha256"`
			} `json:"urlWhole"`
		} `json:"fetches"`
		Dropped *struct {
			Count int      `json:"count"`
			Hosts []string `json:"hosts"`
		} `json:"fetchesDropped"`
	}
	if err := json.Unmarshal([]byte(out), &recs); err != nil || len(recs) != 3 {
		t.Fatalf("%d records, %v:\n%.2000s", len(recs), err, out)
	}
	if r := recs[0]; len(r.Fetches) != 16 || r.Fetches[15].URL != s.URL+"/exfil?i=15" || r.Dropped == nil || r.Dropped.Count != 24 ||
		len(r.Dropped.Hosts) != 1 || r.Dropped.Hosts[0] != s.hostport() {
		t.Errorf("40 fetches recorded as %+v, dropped %+v", len(r.Fetches), r.Dropped)
	}
	if r := recs[1]; len(r.Fetches) != 1 || r.Fetches[0].URL != long || r.Fetches[0].URLWhole != nil {
		t.Errorf("a %d-byte URL recorded as %d bytes", len(long), len(r.Fetches[0].URL))
	}
	sum := sha256.Sum256([]byte(tooLong))
	if r := recs[2]; len(r.Fetches) != 1 || r.Fetches[0].URLWhole == nil || r.Fetches[0].URLWhole.Bytes != len(tooLong) ||
		r.Fetches[0].URLWhole.SHA256 != hex.EncodeToString(sum[:]) || !strings.HasPrefix(tooLong, strings.TrimSuffix(r.Fetches[0].URL, "…")) {
		t.Errorf("a refused %d-byte URL recorded as %+v", len(tooLong), r.Fetches)
	}
	txt := juju(t, home, t.TempDir(), "audit", "--root", root)
	if !strings.Contains(txt, "+24 more") || !strings.Contains(txt, "not listed; to "+s.hostport()) ||
		!strings.Contains(txt, "recorded cut; sha256 "+hex.EncodeToString(sum[:])) {
		t.Errorf("juju audit:\n%s", txt)
	}
}

// A credential in a fetch's URL is masked in its record as in the
// arguments beside it, in juju audit and in --json alike: a URL's user
// (refused), a token in the query of the URL asked for, one in the query
// of the URL a redirect led to; the rest of each URL is kept.
func TestFetchAuditMasksCredentials(t *testing.T) {
	s := newWebServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/login" {
			http.Redirect(w, r, "/landing?access_token=audit-fetch-2abc&page=2", http.StatusFound)
			return
		}
		io.WriteString(w, "ok")
	}))
	trustCert(t, s.Certificate().Raw)
	home := fetchHome(t, true, s.hostport())
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	sess := startHome(t, home, root, "--mode", "trusted")

	sess.call("fetch_url", map[string]any{"url": "https://ghp_fetch1abcdefghijklmnopqrstuvwxyz0123@" + s.hostport() + "/"})
	sess.ok("fetch_url", map[string]any{"url": s.URL + "/login"})
	sess.ok("fetch_url", map[string]any{"url": s.URL + "/api?key=ghp_fetch3abcdefghijklmnopqrstuvwxyz0123&sort=asc"})

	text := juju(t, home, t.TempDir(), "audit", "--root", root)
	js := juju(t, home, t.TempDir(), "audit", "--json", "--root", root)
	for form, out := range map[string]string{"juju audit": text, "juju audit --json": js} {
		for _, secret := range []string{"ghp_fetch1", "audit-fetch-2", "ghp_fetch3"} {
			if strings.Contains(out, secret) {
				t.Errorf("%s shows %q:\n%s", form, secret, out)
			}
		}
		for _, kept := range []string{"https://⟨secret⟩@" + s.hostport() + "/", "/landing?access_token=⟨secret⟩&page=2", "/api?key=⟨secret⟩&sort=asc"} {
			if !strings.Contains(out, kept) {
				t.Errorf("%s lacks %q:\n%s", form, kept, out)
			}
		}
	}
}
