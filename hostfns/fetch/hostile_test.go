package fetch

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/html"

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
		// The parser reopens the formatting elements a block closed: one
		// node each at every block, so a node per byte or two.
		"reopened-bold": fill("<html><body>", "<p><b>x", ""),
		"anchors":       fill("<html><body>", "<a href=x>y", ""),
		"nobr":          fill("<html><body>", "<nobr>x", ""),
	}
}

// Every hostile page of the largest size a fetch reads converts within
// seconds (before the bounds, 38 KB of nested quotes took 46 s, hostile
// tables asked for 10^18 cells, and 8 MiB of "<p><b>x" took 15–21 s and
// held 640 MB of live heap) to at most MaxMarkdown bytes, its heap growing
// by at most 384 MiB, garbage included, and no quote is nested past
// maxNesting.
func TestHostilePagesBounded(t *testing.T) {
	longURL := "https://example.com/" + strings.Repeat("p/", 4000)
	for name, page := range hostilePages(MaxMaxBytes) {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			var md []byte
			var err error
			held := peakLive(func() { md, _, _, err = ToMarkdown(context.Background(), []byte(page), longURL) })
			d := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%v, %d MB held, %d bytes of Markdown", d.Round(10*time.Millisecond), held>>20, len(md))
			if len(md) > MaxMarkdown {
				t.Errorf("%d bytes of Markdown from %d", len(md), len(page))
			}
			if deep := ">" + strings.Repeat(" >", maxNesting); strings.Contains(string(md), deep) {
				t.Errorf("quotes nested past %d", maxNesting)
			}
			// Minutes before the bounds; a few seconds on a loaded
			// 2-core machine after (ten times that under the race
			// detector).
			if d > raceSlowdown*30*time.Second {
				t.Errorf("the conversion took %v", d)
			}
			// 60 to 250 MB after, the most for nested quotes; over a
			// gigabyte for the reopened elements before.
			if held > 384<<20 {
				t.Errorf("the conversion held %d MB", held>>20)
			}
		})
	}
}

// peakLive runs f and returns the most its heap objects grew while it
// ran, the garbage not yet swept included.
func peakLive(f func()) uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	runtime.GC()
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	done, peak := make(chan struct{}), make(chan uint64)
	go func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		var most uint64
		for {
			metrics.Read(sample)
			most = max(most, sample[0].Value.Uint64())
			select {
			case <-done:
				peak <- most
				return
			case <-tick.C:
			}
		}
	}()
	f()
	runtime.GC() // a last measure, for a conversion shorter than a cycle
	close(done)
	return max(<-peak, base) - base
}

// Only the start of a page whose DOM would pass maxNodes or maxDOMBytes
// is converted, and the note says where the Markdown stops; the estimate
// of the DOM's nodes is near what the parser builds, whatever the shape.
func TestDOMBounded(t *testing.T) {
	md, _, cut, err := ToMarkdown(context.Background(), []byte(hostilePages(MaxMaxBytes)["reopened-bold"]), "https://example.com/")
	if err != nil || !strings.Contains(cut, "the page is larger than juju converts to Markdown") || !strings.Contains(cut, "stops 3% into the page") || len(md) == 0 {
		t.Errorf("%d bytes, cut %q, %v", len(md), cut, err)
	}
	shapes := hostilePages(64 << 10)
	shapes["bench"] = benchPage()
	for name, unit := range map[string]string{"misnested": "<b><p>x<i>y</b>z", "foster": "<table><b><tr><td>x</table>", "cols": "<table><col><col></table>",
		"in-button": "<b><button>x</b>y</button>", "attrs": "<p><b class=a><b class=b><b class=c><b class=d>x"} {
		shapes[name] = strings.Repeat(unit, (64<<10)/len(unit))
	}
	for name, page := range shapes {
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			t.Fatal(name, err)
		}
		built := countNodes(doc)
		_, estimated := domPrefix([]byte(page), math.MaxInt)
		if estimated < built*2/3 || estimated > built*4 {
			t.Errorf("%s: %d nodes estimated, %d built", name, estimated, built)
		}
	}
}

func countNodes(n *html.Node) int {
	count := 1
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		count += countNodes(c)
	}
	return count
}

// A conversion whose context ends stops soon after: the parser reads no
// more of the page, and nothing after it runs to its end.
func TestConversionStops(t *testing.T) {
	page := []byte(hostilePages(MaxMaxBytes)["anchors"])
	whole := peakLive(func() { ToMarkdown(context.Background(), page, "https://example.com/") })
	ctx := &endsAfter{Context: context.Background()}
	ctx.checks.Store(3)
	var err error
	stopped := peakLive(func() { _, _, _, err = ToMarkdown(ctx, page, "https://example.com/") })
	if err == nil || stopped > whole/4 {
		t.Errorf("a conversion that ended early held %d MB (%d MB whole): %v", stopped>>20, whole>>20, err)
	}
}

// endsAfter is a context that ends once it was asked checks times.
type endsAfter struct {
	context.Context
	checks atomic.Int32
}

func (c *endsAfter) Err() error {
	if c.checks.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// A page whose Markdown would pass MaxMarkdown is cut there, and says so.
func TestMarkdownCut(t *testing.T) {
	page := hostilePages(MaxMaxBytes)["blockquotes"]
	md, _, cut, err := ToMarkdown(context.Background(), []byte(page), "https://example.com/")
	if err != nil || !strings.Contains(cut, "Markdown was cut") || len(md) > MaxMarkdown || len(md) < MaxMarkdown/2 {
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
	f.toMarkdown = func(ctx context.Context, page []byte, pageURL string) ([]byte, string, string, error) {
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
	f.toMarkdown = func(context.Context, []byte, string) ([]byte, string, string, error) { panic("boom") }
	res, body, _ = call(20 * time.Second)
	if res.Format != abi.FetchText || !strings.Contains(res.Note, "boom") || !strings.Contains(body, "slow words") {
		t.Errorf("a panicking converter: %+v %q", res, body)
	}
}

// The estimate of a page's DOM reads it in one pass whatever its
// formatting elements: <b> tags each unlike the others (a class apiece),
// which the parser's list keeps every one of, made each tag look through
// all those before it, and each step of that look through the list again
// (27 KB took 2.5 s, 2 MiB would take years, and the estimate runs before
// the conversion's time cap can stop anything).
func TestDOMPrefixFormattingBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("<html><body><p>first words")
	for i := 0; b.Len() < maxDOMBytes; i++ {
		fmt.Fprintf(&b, "<b class=%d>", i)
	}
	page := []byte(b.String())
	start := time.Now()
	end, _ := domPrefix(page, maxNodes)
	_, _, _, err := ToMarkdown(context.Background(), page, "https://example.com/")
	// Milliseconds; ten times that under the race detector.
	if d := time.Since(start); d > raceSlowdown*30*time.Second || end >= len(page) {
		t.Errorf("the estimate stopped at byte %d of %d after %v (%v)", end, len(page), d, err)
	}
}
