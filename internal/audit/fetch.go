package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"

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

// NewFetch is a fetch as the record keeps it: each URL whole up to max
// bytes (the longest the fetch function sends), else cut there with its
// length and hash.
func NewFetch(url, finalURL string, status int, outcome string, max int) Fetch {
	f := Fetch{Status: status, Outcome: outcome}
	f.URL, f.URLWhole = cutURL(url, max)
	f.FinalURL, f.FinalURLWhole = cutURL(finalURL, max)
	return f
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
