package oauth

import (
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// Config is what the authorization server needs from juju serve.
type Config struct {
	// Dir is the folder of the store (in the owner's state directory).
	Dir string
	// Mode and Roots are what a grant gives: shown on the consent page and
	// bound into the grant, whose tokens stop working under another mode or
	// other roots.
	Mode  string
	Roots []string
	// Notify shows a pairing code to the owner, on the terminal that runs
	// juju serve. It is the only place a pairing code goes.
	Notify func(Pairing)
	// Log receives events (never a secret); nil discards them.
	Log *slog.Logger
	// Now is the clock (tests); nil is time.Now.
	Now func() time.Time
}

// Pairing is a pairing code to show the owner, and what it would allow.
type Pairing struct {
	Code         string
	ClientID     string
	ClientName   string
	RedirectHost string // where the browser goes once the owner allows
	Mode         string
	Roots        []string
	Expires      time.Time
	// Page is the authorization page the code is for, the only place to
	// type it: whoever loaded it (through the tunnel, anyone) holds its
	// form, so a page elsewhere asking for the code is phishing.
	Page string
}

// Lifetimes.
const (
	AccessTTL  = time.Hour
	RefreshTTL = 30 * 24 * time.Hour
	codeTTL    = time.Minute
	consentTTL = 5 * time.Minute
)

// Server is the authorization server. It is safe for concurrent use.
type Server struct {
	cfg      Config
	store    *Store
	log      *slog.Logger
	now      func() time.Time
	consents *consents
	codes    *codes
	register *window // registrations per minute
	// refreshes are the refreshes per minute, by client.
	refreshes *keyedWindow

	touchMu sync.Mutex
	touched map[string]time.Time // last-used times already written, by client
	writes  sync.WaitGroup       // last-used times being written in the background
}

// Close waits for the last-use records still being written, so that none
// is cut short by the process's exit (or outlives a test's folder).
func (s *Server) Close() { s.writes.Wait() }

// New makes the server over the store in cfg.Dir.
func New(cfg Config) *Server {
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	st := OpenStore(cfg.Dir)
	st.now = now
	return &Server{
		cfg: cfg, store: st, log: log, now: now,
		consents:  newConsents(now),
		codes:     &codes{byHash: map[string]*authCode{}},
		register:  &window{limit: 30, span: time.Minute, now: now},
		refreshes: &keyedWindow{limit: refreshesPerMinute, span: time.Minute, now: now, times: map[string][]time.Time{}},
		touched:   map[string]time.Time{},
	}
}

// Endpoint paths.
const (
	PathResourceMetadata = "/.well-known/oauth-protected-resource"
	PathServerMetadata   = "/.well-known/oauth-authorization-server"
	PathRegister         = "/register"
	PathAuthorize        = "/authorize"
	PathToken            = "/token"
	resourcePath         = "/mcp" // the protected resource, as served by juju serve
)

var paths = []string{PathResourceMetadata, PathServerMetadata, PathRegister, PathAuthorize, PathToken}

// Owns reports whether path is one of the server's endpoints, or a
// well-known URL with a path after it, which ServeOAuth checks against
// the base the request came for.
func (s *Server) Owns(path string) bool {
	return slices.Contains(paths, path) ||
		strings.HasPrefix(path, PathResourceMetadata+"/") || strings.HasPrefix(path, PathServerMetadata+"/")
}

// basePath returns the path of a base URL ("" for "https://host",
// "/juju" for "https://host/juju", the public URL of a proxy that mounts
// juju at /juju).
func basePath(base string) string {
	if u, err := url.Parse(base); err == nil {
		return u.Path
	}
	return ""
}

// wellKnown reports whether path is one of the URLs where a client finds
// a metadata document: at the base itself, and after the well-known
// name the issuer's path (RFC 8414 §3.3) or the resource's (RFC 9728
// §3.1), which for a base with a path lie outside it. A client that takes
// the MCP endpoint for the issuer asks with /mcp after the name: that
// one is answered too.
func wellKnown(path, name, base string) bool {
	p := basePath(base)
	return path == name || path == name+p || path == name+p+resourcePath || path == name+resourcePath
}

// ServeOAuth serves a request to one of the endpoints. base is this
// server's URL as the client reached it ("http://127.0.0.1:7777" or the
// public URL), already checked by juju's HTTP front: it is the issuer, and
// base+"/mcp" the resource.
func (s *Server) ServeOAuth(w http.ResponseWriter, r *http.Request, base string) {
	w.Header().Set("Cache-Control", "no-store")
	switch path := r.URL.Path; {
	case wellKnown(path, PathResourceMetadata, base):
		s.resourceMetadata(w, r, base)
	case wellKnown(path, PathServerMetadata, base):
		s.serverMetadata(w, r, base)
	case path == PathRegister:
		s.serveRegister(w, r)
	case path == PathAuthorize:
		s.serveAuthorize(w, r, base)
	case path == PathToken:
		s.serveToken(w, r, base)
	default:
		http.NotFound(w, r)
	}
}

// window counts events in a sliding span, refusing past limit.
type window struct {
	mu    sync.Mutex
	limit int
	span  time.Duration
	now   func() time.Time
	times []time.Time
}

// allow records an event and reports whether it is within the limit.
func (w *window) allow() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	w.times = slices.DeleteFunc(w.times, func(t time.Time) bool { return now.Sub(t) >= w.span })
	if len(w.times) >= w.limit {
		return false
	}
	w.times = append(w.times, now)
	return true
}

// full reports whether the limit is reached, without recording.
func (w *window) full() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	w.times = slices.DeleteFunc(w.times, func(t time.Time) bool { return now.Sub(t) >= w.span })
	return len(w.times) >= w.limit
}

// keyedWindow is a window for each key: events of one key never count
// against another's limit. A key is forgotten once its span holds nothing.
type keyedWindow struct {
	mu    sync.Mutex
	limit int
	span  time.Duration
	now   func() time.Time
	times map[string][]time.Time
}

// allow records an event of key and reports whether it is within the
// limit.
func (w *keyedWindow) allow(key string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	for k, ts := range w.times {
		if ts = slices.DeleteFunc(ts, func(t time.Time) bool { return now.Sub(t) >= w.span }); len(ts) == 0 {
			delete(w.times, k)
		} else {
			w.times[k] = ts
		}
	}
	if len(w.times[key]) >= w.limit {
		return false
	}
	w.times[key] = append(w.times[key], now)
	return true
}
