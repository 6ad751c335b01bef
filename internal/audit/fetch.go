package audit

import "github.com/jujutools/juju/sdk/abi"

// Fetch is one web fetch a call made (fetch_url, or a plugin granted
// net.fetch), as the host saw it: the URL asked for and the URL of the last
// hop, so a redirect is on the record.
type Fetch struct {
	URL      string `json:"url"`
	FinalURL string `json:"finalUrl,omitempty"` // when a response came, or the hop that was refused
	Status   int    `json:"status,omitempty"`   // the last hop's HTTP status
	Outcome  string `json:"outcome"`            // "ok" or the error code
}

// Bounds of the fetches in one record.
const (
	MaxFetches  = 16   // fetches recorded per call
	maxURLBytes = 1024 // bytes of each URL
)

// ShortURL cuts a URL for the log.
func ShortURL(u string) string { return abi.Cut(u, maxURLBytes) }
