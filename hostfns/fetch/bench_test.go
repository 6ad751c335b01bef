package fetch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// benchPage is a documentation page of about 1 MB.
func benchPage() string {
	var b strings.Builder
	b.WriteString("<html><head><title>Ref</title><script>x()</script></head><body>")
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "<h2>%d. <code>Config</code></h2><p>See <a href=\"/pkg/%d\">config</a> and <em>more</em>.</p>"+
			"<pre><code>cfg, err := config.Load(\"app.toml\")\n</code></pre><ul><li>one</li><li>two</li></ul>"+
			"<table><tr><th>Key</th><th>Default</th></tr><tr><td>mode</td><td>edit</td></tr></table>\n", i, i)
	}
	return b.String() + "</body></html>"
}

// BenchmarkFetchPage is the host function on a 1 MB page from loopback
// (TLS, transfer, decode, conversion); BenchmarkToMarkdown the conversion
// alone. Their difference is the fetch's own cost.
func BenchmarkFetchPage(b *testing.B) {
	page := benchPage()
	s := newServer(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, page)
	}))
	f := testFetcher(s, s.hostport())
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if _, _, aerr := f.fetch(context.Background(), &abi.FetchRequest{URL: s.URL + "/"}, nil); aerr != nil {
			b.Fatal(aerr)
		}
	}
}

func BenchmarkToMarkdown(b *testing.B) {
	page := []byte(benchPage())
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if _, _, _, err := ToMarkdown(context.Background(), page, "https://example.com/"); err != nil {
			b.Fatal(err)
		}
	}
}
