package mcpserver

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
)

// clientCalls are the POSTs of OAuth clients being served, so that `juju
// clients revoke` ends them. Ending a revoked client's sessions through
// mcp-go (endRevoked) ends its GET streams, but not a call already
// running: a fetch_url, or a call held up to the approval timeout for the
// owner's answer in the terminal, ran on and its answer went to the client
// that had just been revoked (and a call held for approval could still
// run, were the owner to approve it then). So each such request is served
// in a context the front can cancel, and the revocation check cancels
// those of every client that may no longer obtain access: the work stops
// where it next looks at its context, and whatever it answers is dropped
// (cutWriter) — the client gets a 401 invalid_token, as its next request
// would, or, if its answer had begun as an event stream, the stream ends
// without an answer.
type clientCalls struct {
	mu   sync.Mutex
	reqs map[*cutWriter]string // the client id (oauth.Server.Live's)
}

// hold serves a request of client in a context that cut may cancel, and
// its answer through the returned writer; done ends the hold.
func (in *clientCalls) hold(ctx context.Context, w http.ResponseWriter, client string) (context.Context, *cutWriter, func()) {
	ctx, cancel := context.WithCancel(ctx)
	cw := &cutWriter{ResponseWriter: w, cancel: cancel}
	in.mu.Lock()
	if in.reqs == nil {
		in.reqs = map[*cutWriter]string{}
	}
	in.reqs[cw] = client
	in.mu.Unlock()
	return ctx, cw, func() {
		in.mu.Lock()
		delete(in.reqs, cw)
		in.mu.Unlock()
		cancel()
	}
}

// cut ends the requests of every client live says no longer may obtain
// access, and returns how many it ended.
func (in *clientCalls) cut(live func(client string) bool) int {
	in.mu.Lock()
	held := make(map[*cutWriter]string, len(in.reqs))
	for cw, c := range in.reqs {
		held[cw] = c
	}
	in.mu.Unlock()
	dead, n := map[string]bool{}, 0
	for cw, c := range held {
		d, seen := dead[c]
		if !seen {
			d = !live(c)
			dead[c] = d
		}
		if d && cw.cut() {
			n++
		}
	}
	return n
}

// oauthClient is the OAuth client id of a principal, "" for the local one.
func oauthClient(principal string) string {
	c, _ := strings.CutPrefix(principal, oauthPrincipal)
	if c == principal {
		return ""
	}
	return c
}

// errCut is what a write to a cut request's answer returns.
var errCut = errors.New("the request was ended: its OAuth client was revoked")

// cutWriter is a request's answer that the front can cut: once cut, it
// writes nothing more.
type cutWriter struct {
	http.ResponseWriter
	cancel context.CancelFunc
	mu     sync.Mutex
	ended  bool // cut
	wrote  bool // something of the answer went out before
}

// cut ends the request: its context is cancelled and its answer dropped.
// It reports false when it was cut already.
func (c *cutWriter) cut() bool {
	c.mu.Lock()
	was := c.ended
	c.ended = true
	c.mu.Unlock()
	c.cancel()
	return !was
}

// state reports whether the request was cut, and whether anything of its
// answer had gone out.
func (c *cutWriter) state() (cut, wrote bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ended, c.wrote
}

// open reports whether the answer may still be written, marking it begun.
func (c *cutWriter) open() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return false
	}
	c.wrote = true
	return true
}

func (c *cutWriter) WriteHeader(code int) {
	if c.open() {
		c.ResponseWriter.WriteHeader(code)
	}
}

func (c *cutWriter) Write(p []byte) (int, error) {
	if !c.open() {
		return 0, errCut
	}
	return c.ResponseWriter.Write(p)
}

// Flush keeps SSE streaming through the wrapper.
func (c *cutWriter) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok && c.open() {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (c *cutWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// endCut answers a request cut before anything of its answer went out:
// 401 invalid_token, what its client's next request gets. The headers
// mcp-go set for an answer it did not write go.
func (c *cutWriter) endCut(base string) {
	cut, wrote := c.state()
	if !cut || wrote {
		return
	}
	h := c.ResponseWriter.Header()
	for k := range h {
		delete(h, k)
	}
	h.Set("X-Content-Type-Options", "nosniff")
	unauthorized(c.ResponseWriter, base, true)
}
