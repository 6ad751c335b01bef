package audit

import "unicode/utf8"

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
func ShortURL(u string) string { return cut(u, maxURLBytes) }

// cut cuts s to at most n bytes, on a character's start, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	at := n
	for at > 0 && !utf8.RuneStart(s[at]) {
		at--
	}
	return s[:at] + "…"
}
