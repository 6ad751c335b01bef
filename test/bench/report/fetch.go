package main

import (
	"context"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jujutools/juju/hostfns/fetch"
)

// fetchPage is line fx: fetch_url of a 1 MB HTML page served over https
// from loopback by the report, converted to Markdown, against the same
// conversion (fetch.ToMarkdown, html-to-markdown v2) done natively in this
// process on the same bytes.
func (b *bench) fetchPage() row {
	r := row{ID: "fx", Work: "fetch_url of a 1 MB HTML page → Markdown", Unit: "ms", Target: target{Limit: 2, OnRatio: true},
		Via: "one warm process, --mode trusted, web fetch on with the report's loopback https server in fetch.allow (SSL_CERT_FILE trusts it); " +
			"the call includes TLS, the transfer and the cut to 90,000 bytes",
		Against: "fetch.ToMarkdown on the same bytes in the report's process (no network)"}
	page := htmlPage(1 << 20)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, page)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	defer srv.Close()
	certFile := filepath.Join(b.tmp, "fetch-roots.pem")
	config := filepath.Join(b.tmp, "fetch.toml")
	host := strings.TrimPrefix(srv.URL, "https://")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		return r.with(nil, nil, err)
	}
	if err := os.WriteFile(config, fmt.Appendf(nil, "allowWebFetch = true\n[fetch]\nallow = [%q]\n", host), 0o600); err != nil {
		return r.with(nil, nil, err)
	}
	c := b.juju(b.warmHome, b.ws)
	c.name = "juju-fetch" // its conversions' memory is said in the note, not in line 8's steady state
	c.args = append(c.args, "--mode", "trusted", "--config", config)
	c.env = append(c.env, "SSL_CERT_FILE="+certFile)
	j, err := b.live(c)
	if err != nil {
		return r.with(nil, nil, err)
	}
	params := callParams("fetch_url", map[string]any{"url": srv.URL + "/page"})
	n := max(3, b.opts.runs/3)
	b.progress("fetch_url of a %d KB page, n=%d (juju, native conversion)", len(page)>>10, n)
	if _, err := j.call(params); err != nil { // warms the plugin, the connection and the allocator
		return r.with(nil, nil, err)
	}
	var js, ns sample
	var mdBytes int
	for range n {
		d, err := timedCall(j, params)
		if err != nil {
			return r.with(nil, nil, err)
		}
		js = append(js, d)
		t := time.Now()
		md, _, _, err := fetch.ToMarkdown(context.Background(), []byte(page), srv.URL+"/page")
		if err != nil {
			return r.with(nil, nil, err)
		}
		ns = append(ns, time.Since(t))
		mdBytes = len(md)
	}
	r = r.with(js, ns, nil)
	r.Note = fmt.Sprintf("%d bytes of HTML → %d bytes of Markdown, of which the result shows the first 90,000", len(page), mdBytes)
	if rss, err := j.peakRSS(); err == nil {
		r.Note += fmt.Sprintf("; peak RSS of this juju process %.1f MB", float64(rss)/(1<<20))
	}
	return r
}

// htmlPage is a documentation page of about size bytes: headings,
// paragraphs with links and inline code, code blocks, lists, tables, and
// the scripts and styles a real page carries.
func htmlPage(size int) string {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><title>Reference</title><style>body{font:14px sans-serif}</style>" +
		"<script>window.analytics=[]</script></head><body><nav><a href=\"/\">Home</a> · <a href=\"/docs\">Docs</a></nav><main>\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "<h2 id=\"s%d\">%d. The <code>Config</code> type</h2>\n", i, i)
		fmt.Fprintf(&b, "<p>Package <a href=\"/pkg/%d\">config</a> reads <em>settings</em> from <strong>files</strong> and flags; see "+
			"<a href=\"https://example.com/ref/%d\">the reference</a> &amp; the <code>Load</code> function.</p>\n", i, i)
		b.WriteString("<pre><code class=\"language-go\">cfg, err := config.Load(\"app.toml\")\nif err != nil {\n\treturn fmt.Errorf(\"loading: %w\", err)\n}\n</code></pre>\n")
		b.WriteString("<ul><li>one <code>mode</code></li><li>two <a href=\"#x\">link</a></li><li>three<ul><li>nested</li></ul></li></ul>\n")
		b.WriteString("<table><thead><tr><th>Key</th><th>Type</th><th>Default</th></tr></thead><tbody><tr><td>mode</td><td>string</td>" +
			"<td>edit</td></tr><tr><td>sandbox</td><td>string</td><td>prefer</td></tr></tbody></table>\n")
		b.WriteString("<script>track(\"section\")</script>\n")
	}
	b.WriteString("</main></body></html>\n")
	return b.String()
}
