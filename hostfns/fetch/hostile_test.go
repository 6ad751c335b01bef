package fetch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// hostilePages are pages of about size bytes shaped to make the Markdown
// converter work or write far more than their size: deep nesting of the
// elements whose renderers re-read their content, huge spans and
// fill-ups of tables, long attributes, list numbers on every line.
func hostilePages(size int) map[string]string {
	fill := func(head, unit, tail string) string {
		return head + strings.Repeat(unit, max(1, (size-len(head)-len(tail))/len(unit))) + tail
	}
	return map[string]string{
		"blockquotes":      fill("<html><body>"+strings.Repeat("<blockquote>", 505), "<p>x</p>", ""),
		"lists":            fill("<html><body>"+strings.Repeat("<ul><li>", 250), "x<br>", ""),
		"ordered-lists":    fill("<html><body>"+strings.Repeat(`<ol start="999999999999999999"><li>`, 250), "x<br>", ""),
		"emphasis":         fill("<html><body>"+strings.Repeat("<b><i>", 250), "x<br>", ""),
		"quote-in-list":    fill("<html><body>"+strings.Repeat("<ol><li><blockquote>", 160), "<p>x</p>", ""),
		"spans":            fill("<html><body><table>", `<tr><td colspan="1000000000" rowspan="1000000000">x</td></tr>`, "</table>"),
		"many-span-tables": fill("<html><body>", `<table><tr><td colspan="1000" rowspan="1000">x</td></tr></table>`, ""),
		"wide-then-long":   fill("<html><body><table><tr>"+strings.Repeat("<td>x", 20000)+"</tr>", "<tr><td>x", "</table>"),
		"wide-cell":        fill("<html><body><table><tr><td>"+strings.Repeat("w", size/4)+"</td></tr>", "<tr><td>x", "</table>"),
		"relative-links":   fill("<html><body>", "<a href=?x>y</a>", ""),
		"long-href":        fill("<html><body>", `<a href="`+strings.Repeat("%20", 20000)+`">y</a>`, ""),
		"punctuation":      fill("<html><body><p>", "*_[]`#", ""),
		"code":             fill("<html><body><pre>", "```\n", ""),
	}
}

// Every hostile page converts within seconds (before the bounds, 38 KB of
// nested quotes took 46 s and hostile tables asked for 10^18 cells) to
// at most MaxMarkdown bytes, and no quote is nested past maxNesting.
func TestHostilePagesBounded(t *testing.T) {
	longURL := "https://example.com/" + strings.Repeat("p/", 4000)
	for name, page := range hostilePages(256 << 10) {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			md, _, _, err := ToMarkdown(context.Background(), []byte(page), longURL)
			d := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			if len(md) > MaxMarkdown {
				t.Errorf("%d bytes of Markdown from %d", len(md), len(page))
			}
			if deep := ">" + strings.Repeat(" >", maxNesting); strings.Contains(string(md), deep) {
				t.Errorf("quotes nested past %d", maxNesting)
			}
			// Minutes before the bounds; a second or two on a loaded
			// 2-core machine after.
			if d > 30*time.Second {
				t.Errorf("the conversion took %v", d)
			}
		})
	}
}

// A page whose Markdown would pass MaxMarkdown is cut there, and says so.
func TestMarkdownCut(t *testing.T) {
	page := hostilePages(MaxMaxBytes)["code"]
	md, _, cut, err := ToMarkdown(context.Background(), []byte(page), "https://example.com/")
	if err != nil || !cut || len(md) > MaxMarkdown || len(md) < MaxMarkdown/2 {
		t.Fatalf("%d bytes, cut %v, %v", len(md), cut, err)
	}
}

// A conversion that outlasts the call's time cap gives the page's text
// with a note, in time; it keeps its slot until it really ends, so that
// abandoned conversions never run more than convertSlots at once; a fetch
// that finds every slot taken gives up when its own time cap runs out;
// a panicking converter is a note, not a crash.
func TestConversionDeadline(t *testing.T) {
	s := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html><head><title>T</title></head><body><p>slow words</p></body></html>")
	}))
	f := testFetcher(s, s.hostport())
	release := make(chan struct{})
	var running, most atomic.Int32
	f.toMarkdown = func(ctx context.Context, page []byte, pageURL string) ([]byte, string, bool, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		<-release // a conversion that does not look at ctx
		return ToMarkdown(ctx, page, pageURL)
	}
	call := func(timeout time.Duration) (*abi.FetchResult, string, time.Duration) {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		start := time.Now()
		res, body, aerr := f.fetch(ctx, &abi.FetchRequest{URL: s.URL + "/"}, nil)
		if aerr != nil {
			t.Fatal(aerr)
		}
		return res, string(body), time.Since(start)
	}
	// Two conversions stuck: each call answers at its deadline with text.
	done := make(chan string, 2)
	for range convertSlots {
		go func() {
			res, body, d := call(4 * time.Second)
			done <- fmt.Sprintf("%s|%s|%s|%v", res.Format, res.Note, body, d < 8*time.Second)
		}()
	}
	for range convertSlots {
		got := <-done
		if !strings.HasPrefix(got, "text|converting the page to Markdown took longer than the time cap") || !strings.Contains(got, "slow words") || !strings.HasSuffix(got, "true") {
			t.Errorf("a conversion past the deadline: %s", got)
		}
	}
	// Both slots are still held by the abandoned conversions: a third
	// fetch waits for one until its own deadline, then gives the text.
	res, body, d := call(4 * time.Second)
	if res.Format != abi.FetchText || !strings.Contains(res.Note, "other pages were being converted") || !strings.Contains(body, "slow words") || d > 8*time.Second {
		t.Errorf("waiting for a slot: %+v %q after %v", res, body, d)
	}
	if n := most.Load(); n != convertSlots {
		t.Errorf("%d conversions ran at once, want %d", n, convertSlots)
	}
	// Once they end, the slots are free again.
	close(release)
	res, body, _ = call(20 * time.Second)
	if res.Format != abi.FetchMarkdown || res.Note != "" || res.Title != "T" || !strings.Contains(body, "slow words") {
		t.Errorf("after the slots came free: %+v %q", res, body)
	}
	f.toMarkdown = func(context.Context, []byte, string) ([]byte, string, bool, error) { panic("boom") }
	res, body, _ = call(20 * time.Second)
	if res.Format != abi.FetchText || !strings.Contains(res.Note, "boom") || !strings.Contains(body, "slow words") {
		t.Errorf("a panicking converter: %+v %q", res, body)
	}
}
