package abi

// Fetch host function (capability net.fetch, served to exec-tier tools
// only): the host fetches an https URL for the plugin, which never opens a
// socket. Every connection is checked at connect time against the
// special-purpose address blocks (loopback, private, link-local and cloud
// metadata, …), on every redirect hop; the owner must enable web fetches
// (otherwise FETCH_DISABLED) and may exempt exact host:port pairs.
const FnFetch = "juju_fetch" // FetchRequest → FetchResult + the text (or bytes) as the body; net.fetch

// Fetch formats: what the response body holds.
const (
	FetchMarkdown = "markdown" // HTML converted to Markdown; other text as is
	FetchText     = "text"     // HTML with its tags stripped; other text as is
	FetchRaw      = "raw"      // the body as sent (text decoded to UTF-8)
)

// Kinds of fetched content.
const (
	FetchKindHTML   = "html"
	FetchKindText   = "text"
	FetchKindBinary = "binary"
)

// FetchRequest fetches one URL with GET.
type FetchRequest struct {
	URL string `json:"url"` // an absolute https:// URL
	// Format is FetchMarkdown (default), FetchText or FetchRaw.
	Format string `json:"format,omitempty"`
	// MaxBytes caps the body read, counted after decompression (0: the
	// host's default; more than the host's ceiling: the ceiling).
	MaxBytes int64 `json:"maxBytes,omitempty"`
	// TimeoutMs caps the whole fetch: connections, redirects, headers and
	// body (0: the host's default; more than its ceiling: the ceiling).
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
}

// FetchResult describes the response. The body of the response frame is
// the content in the asked format, as UTF-8 text; for binary content it is
// empty unless the format is FetchRaw, where it holds the bytes read.
type FetchResult struct {
	Status
	URL         string   `json:"url"`                 // the URL asked for, as fetched (without its fragment)
	FinalURL    string   `json:"finalUrl"`            // the URL of the last hop
	Redirects   []string `json:"redirects,omitempty"` // the URLs redirected to, in order (the last is FinalURL)
	StatusCode  int      `json:"status"`              // the HTTP status of the last hop
	StatusText  string   `json:"statusText"`          // the code and Go's name for it, e.g. "404 Not Found" (never the server's reason phrase)
	ContentType string   `json:"contentType"`         // the media type and charset of the server's Content-Type, written anew
	Kind        string   `json:"kind"`                // FetchKindHTML, FetchKindText, FetchKindBinary
	Format      string   `json:"format"`              // the format of the body: FetchRaw as asked; else FetchMarkdown for converted HTML, FetchText for the rest (other text, or HTML that could not be converted)
	Bytes       int64    `json:"bytes"`               // body bytes read, after decompression
	Truncated   bool     `json:"truncated,omitempty"` // the body was cut at MaxBytes
	TimedOut    bool     `json:"timedOut,omitempty"`  // the body was cut when the time cap ran out
	Title       string   `json:"title,omitempty"`     // an HTML page's <title>
	Note        string   `json:"note,omitempty"`      // what to know about the conversion
}
