package test

import (
	"bytes"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/visible"
)

// A request refused for its Origin alone (its Host is juju serve's) names
// that Origin on juju serve's terminal, as a refused Host is named: a
// connector or a browser-based client that sends an Origin juju serve does
// not answer to otherwise fails with nothing on the owner's side. Once per
// Origin, for at most 8 of them (a web page chooses them), rendered by
// internal/visible (a look-alike or a bidi override shows as an escape)
// and clipped to 200 characters, and nothing else of the request. An Origin refused along with its Host
// leaves the Host's line alone; an allowed Origin is not named.
func TestServeRefusedOriginTellsTheOwner(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "a\n"})
	srv := startServe(t, root, "--public-url", "https://name.example")
	const phrase = "refused a request from a web origin juju serve does not answer to"

	get := func(host, origin string, extra map[string]string) {
		t.Helper()
		hdr := merge(map[string]string{"Host": host, "Origin": origin}, extra)
		res, body := srv.raw(t, "GET", "/.well-known/oauth-protected-resource?q=path-marker", "", hdr)
		if res.StatusCode != 403 {
			t.Fatalf("Host %s, Origin %q: %d, want 403: %s", host, origin, res.StatusCode, body)
		}
	}
	lookalike := "https://chatg\u0440t.com"                     // a Cyrillic р
	bidi := "https://evil\u202e.example"                        // a right-to-left override
	long := "https://" + strings.Repeat("a", 5000) + ".example" // shown clipped
	origins := []string{"https://chatgpt.com", lookalike, bidi, long}
	for i := range 12 {
		origins = append(origins, fmt.Sprintf("https://page-%d.example", i))
	}
	// Refused with its Host: the Host is named, the Origin is not.
	get("other.example", "https://with-its-host.example", nil)
	for range 2 {
		for _, o := range origins {
			get("name.example", o, merge(srv.bearer(), map[string]string{"X-Marker": "header-marker"}))
		}
	}
	// The allowed Origin is served.
	if res, body := srv.raw(t, "GET", "/.well-known/oauth-protected-resource", "", map[string]string{
		"Host": "name.example", "Origin": "https://name.example"}); res.StatusCode != 200 {
		t.Fatalf("the public URL's own Origin: %d %s", res.StatusCode, body)
	}
	// A line logged after every refusal: all of theirs are read by then.
	if res, body := srv.raw(t, "POST", "/register", `{"client_name":"sentinel","redirect_uris":["https://client.example/cb"]}`, nil); res.StatusCode != 201 {
		t.Fatalf("register: %d %s", res.StatusCode, body)
	}
	if !srv.logged("registered an OAuth client") {
		t.Fatalf("no registration logged:\n%s", srv.log)
	}

	log := srv.log.String()
	var named []string
	for line := range strings.SplitSeq(log, "\n") {
		if !strings.Contains(line, phrase) {
			continue
		}
		_, o, _ := strings.Cut(line, " origin=")
		named = append(named, o)
		for _, leak := range []string{"path-marker", "header-marker", srv.token, "oauth-protected-resource"} {
			if strings.Contains(line, leak) {
				t.Errorf("the line names more of the request than its Origin (%q):\n%s", leak, line)
			}
		}
		if !strings.Contains(line, "--public-url is https://name.example") {
			t.Errorf("the line does not name the --public-url juju serve answers to:\n%s", line)
		}
	}
	var want []string
	for _, o := range origins[:8] {
		shown := visible.String(o)
		if o == long {
			shown, _ = visible.Clip(shown, 200)
			shown += fmt.Sprintf(" (%d characters more)", len(long)-199)
		}
		want = append(want, logValue(shown))
	}
	if !slices.Equal(named, want) {
		t.Errorf("the owner was told of the refused origins %q, want %q once each:\n%s", named, want, log)
	}
	if strings.ContainsAny(log, "\u0440\u202e") {
		t.Errorf("an Origin reached the terminal unrendered:\n%s", log)
	}
	if !srv.logged("host=other.example") || strings.Contains(log, "with-its-host") {
		t.Errorf("an Origin refused along with its Host: the Host should be named, not the Origin:\n%s", log)
	}
}

// logValue is s as juju's log (slog's text format) writes an attribute's
// value.
func logValue(s string) string {
	var b bytes.Buffer
	slog.New(slog.NewTextHandler(&b, nil)).Info("", "v", s)
	_, v, _ := strings.Cut(strings.TrimSuffix(b.String(), "\n"), " v=")
	return v
}

// A refused X-Forwarded-Host, which unlike Host may hold any character, is
// named on the terminal rendered by internal/visible: a look-alike of the
// --public-url's host shows as an escape, not as that host.
func TestServeRefusedForwardedHostShowsVisibly(t *testing.T) {
	srv := startServe(t, workspace(t, nil), "--public-url", "https://name.example")
	lookalike := "name.exampl\u0435" // a Cyrillic е
	res, body := srv.raw(t, "GET", "/.well-known/oauth-protected-resource", "", map[string]string{"X-Forwarded-Host": lookalike})
	if res.StatusCode != 403 {
		t.Fatalf("a look-alike X-Forwarded-Host: %d %s", res.StatusCode, body)
	}
	if !srv.logged("host=" + logValue(visible.String(lookalike))) {
		t.Errorf("the refused X-Forwarded-Host is not named as internal/visible renders it:\n%s", srv.log)
	}
	if strings.Contains(srv.log.String(), "\u0435") {
		t.Errorf("a refused X-Forwarded-Host reached the terminal unrendered:\n%s", srv.log)
	}
}
