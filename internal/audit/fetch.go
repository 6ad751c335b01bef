package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"slices"
	"strings"

	"github.com/jujutools/juju/internal/visible"
	"github.com/jujutools/juju/sandbox"
	"github.com/jujutools/juju/sdk/abi"
)

// Fetch is one web fetch a call made (fetch_url, or a plugin granted
// net.fetch), as the host saw it: the URL asked for and the URL of the last
// hop, so a redirect is on the record.
type Fetch struct {
	URL      string `json:"url"`
	FinalURL string `json:"finalUrl,omitempty"` // when a response came, or the hop that was refused
	Status   int    `json:"status,omitempty"`   // the last hop's HTTP status
	Outcome  string `json:"outcome"`            // "ok" or the error code
	// URLWhole and FinalURLWhole describe a URL longer than the fetch
	// function sends, which is kept cut (a request or a redirect refused
	// for its length): nothing sent is cut.
	URLWhole      *Whole `json:"urlWhole,omitempty"`
	FinalURLWhole *Whole `json:"finalUrlWhole,omitempty"`
}

// Whole is the length and the SHA-256 of a URL the record keeps cut.
type Whole struct {
	Bytes  int    `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// MaxFetches is how many fetches a record lists; the rest are counted in
// its FetchesDropped.
const MaxFetches = 16

// NewFetch is a fetch as the record keeps it: each URL with its
// credentials masked (MaskURL), whole up to max bytes (the longest the
// fetch function sends), else cut there with its length and hash.
func NewFetch(url, finalURL string, status int, outcome string, max int) Fetch {
	f := Fetch{Status: status, Outcome: outcome}
	f.URL, f.URLWhole = cutURL(MaskURL(url), max)
	f.FinalURL, f.FinalURLWhole = cutURL(MaskURL(finalURL), max)
	return f
}

// MaskURL is a URL with each credential in it, as the record's arguments
// judge them (sandbox.SecretSpans: a URL's user, a token= or password=
// in its query, a known service's token), written visible.SecretMark, so
// that a fetch keeps no more of a URL than the arguments beside it do.
// The rules are asked about the scheme and authority, each segment of
// the path and each pair of the query apart, so a mask ends where its
// piece does: the rest of a query after a token= is kept, as it may be
// data a page was made to send out. A URL the rules judge a secret only
// whole (a webhook's) keeps its scheme and host, the rest masked. A ⟨ already in
// the URL is percent-encoded first (a URL's query may hold one as
// written), so only a mask reads as one.
func MaskURL(u string) string {
	u = strings.ReplaceAll(u, "⟨", url.QueryEscape("⟨"))
	whole := sandbox.SecretSpans(u)
	if len(whole) == 0 {
		return u
	}
	next := func(from int) int {
		if j := strings.IndexAny(u[from:], "/?&;#"); j >= 0 {
			return from + j
		}
		return len(u)
	}
	authority := 0
	if i := strings.Index(u, "://"); i >= 0 {
		authority = len(u)
		if j := strings.IndexAny(u[i+3:], "/?#"); j >= 0 {
			authority = i + 3 + j
		}
	}
	var spans [][2]int
	start, end := 0, authority
	if end == 0 {
		end = next(0)
	}
	for {
		for _, s := range sandbox.SecretSpans(u[start:end]) {
			spans = append(spans, [2]int{start + s[0], start + s[1]})
		}
		if end >= len(u) {
			break
		}
		start = end + 1
		end = next(start)
	}
	switch {
	case len(spans) > 0:
	case authority > 0 && authority < len(u):
		spans = [][2]int{{authority, len(u)}}
	default:
		spans = whole
	}
	var b strings.Builder
	at := 0
	for _, s := range spans {
		b.WriteString(u[at:s[0]])
		b.WriteString(visible.SecretMark)
		at = s[1]
	}
	b.WriteString(u[at:])
	return b.String()
}

func cutURL(u string, max int) (string, *Whole) {
	if len(u) <= max {
		return u, nil
	}
	sum := sha256.Sum256([]byte(u))
	return abi.Cut(u, max), &Whole{Bytes: len(u), SHA256: hex.EncodeToString(sum[:])}
}

// DroppedFetches are the fetches of a call past MaxFetches: how many, and
// the hosts they asked for and ended at, each once, at most
// MaxDroppedHosts of them.
type DroppedFetches struct {
	Count int      `json:"count"`
	Hosts []string `json:"hosts,omitempty"`
	// MoreHosts says there were other hosts than those listed.
	MoreHosts bool `json:"moreHosts,omitempty"`
}

// MaxDroppedHosts bounds DroppedFetches.Hosts.
const MaxDroppedHosts = 16

// Add counts one more dropped fetch, to the given hosts.
func (d *DroppedFetches) Add(hosts ...string) {
	d.Count++
	for _, h := range hosts {
		switch {
		case h == "" || slices.Contains(d.Hosts, h):
		case len(d.Hosts) >= MaxDroppedHosts:
			d.MoreHosts = true
		default:
			d.Hosts = append(d.Hosts, abi.Cut(h, 256))
		}
	}
}
