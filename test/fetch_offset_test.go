package test

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestFetchURLOffsetsAreWhereTheTextIs reads a page of multi-byte text,
// one line longer than a result holds, in pieces by offset: the pieces
// joined must be the page, no byte lost or repeated; an offset inside a
// character starts at the next one and the result's offset says which;
// and nextOffset is where the text shown ends, also when escaped control
// characters cut it short.
func TestFetchURLOffsetsAreWhereTheTextIs(t *testing.T) {
	page := "😀" + strings.Repeat("aé€😀", 12_000) + "THE END" // 120 KB, one line
	controls := "😀" + strings.Repeat("\x01", 30_000) + "THE END"
	s := newWebServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if r.URL.Path == "/controls" {
			io.WriteString(w, controls)
			return
		}
		io.WriteString(w, page)
	}))
	trustCert(t, s.Certificate().Raw)
	sess := startFetch(t, fetchHome(t, true, s.hostport()))
	fenced := regexp.MustCompile(`(?s)\n<<<web content (\S+)>>>\n(.*)\n<<<end of web content (\S+)>>>\n`)

	// fetch reads path from offset and returns the text shown, where the
	// result says it starts, and its nextOffset (0 at the end).
	fetch := func(path string, offset int64) (string, int64, int64) {
		t.Helper()
		res := sess.call("fetch_url", map[string]any{"url": s.URL + path, "offset": offset})
		body := text(res)
		if res.IsError {
			t.Fatalf("offset %d: %s", offset, body)
		}
		m := fenced.FindStringSubmatch(body)
		if m == nil || m[1] != m[3] {
			t.Fatalf("offset %d: no fenced text in %.300q", offset, body)
		}
		sc := structured(t, res)
		var start, next int64
		if _, ok := sc["offset"]; ok {
			start = num(t, sc, "offset")
		}
		if _, ok := sc["nextOffset"]; ok {
			next = num(t, sc, "nextOffset")
			if !strings.Contains(body, fmt.Sprintf("bytes %d to %d of", start, next-1)) {
				t.Fatalf("offset %d: the text is bytes %d to %d, the note says otherwise: …%s", offset, start, next-1, body[len(body)-300:])
			}
		}
		return m[2], start, next
	}

	var joined strings.Builder
	for at := int64(0); ; {
		shown, start, next := fetch("/", at)
		if start != at {
			t.Fatalf("reading on from %d starts at %d", at, start)
		}
		if next != 0 && next != start+int64(len(shown)) {
			t.Fatalf("from %d: %d bytes shown, but nextOffset %d", start, len(shown), next)
		}
		joined.WriteString(shown)
		if next == 0 {
			break
		}
		at = next
	}
	if joined.String() != page {
		t.Fatalf("the pieces make %d bytes, the page is %d: a byte lost or repeated", joined.Len(), len(page))
	}

	for offset := int64(1); offset < 4; offset++ { // inside the first 😀
		shown, start, next := fetch("/", offset)
		if start != 4 || !strings.HasPrefix(page[4:], shown) || next != 4+int64(len(shown)) {
			t.Fatalf("offset %d: the text starts at %d, the result says %d, nextOffset %d", offset, 4, start, next)
		}
		shown, start, next = fetch("/controls", offset)
		cut := int64(strings.Count(shown, `\x01`))
		if start != 4 || next != 4+cut || len(shown) != 4*int(cut) {
			t.Fatalf("offset %d, controls: %d shown from %d, nextOffset %d", offset, cut, start, next)
		}
		if rest, _, _ := fetch("/controls", next); strings.Count(rest, `\x01`) != 30_000-int(cut) || !strings.HasSuffix(rest, "THE END") {
			t.Fatalf("offset %d, controls: reading on from %d shows %d of the %d controls left", offset, next, strings.Count(rest, `\x01`), 30_000-cut)
		}
	}
}
