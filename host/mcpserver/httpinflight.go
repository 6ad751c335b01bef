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

// hold counts cw, the answer of a request of client, among those cut
// revokes; the returned function ends the hold.
func (in *clientCalls) hold(cw *cutWriter, client string) func() {
	in.mu.Lock()
	if in.reqs == nil {
		in.reqs = map[*cutWriter]string{}
	}
	in.reqs[cw] = client
	in.mu.Unlock()
	return func() {
		in.mu.Lock()
		delete(in.reqs, cw)
		in.mu.Unlock()
	}
}

// newCutWriter serves a request in a context the front may cancel, its
// answer through the returned writer; done ends it.
func newCutWriter(ctx context.Context, w http.ResponseWriter) (context.Context, *cutWriter, func()) {
	ctx, cancel := context.WithCancel(ctx)
	return ctx, &cutWriter{ResponseWriter: w, cancel: cancel}, cancel
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
		if d && cw.cut(true) {
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
	cancel  context.CancelFunc
	mu      sync.Mutex
	ended   bool // cut
	revoked bool // cut for its client's revocation, not a cancellation
	wrote   bool // something of the answer went out before
}

// cut ends the request: its context is cancelled and its answer dropped;
// revoked says why. It reports false when it was cut already.
func (c *cutWriter) cut(revoked bool) bool {
	c.mu.Lock()
	was := c.ended
	c.ended = true
	c.revoked = c.revoked || revoked
	cancel := c.cancel
	c.mu.Unlock()
	cancel()
	return !was
}

// newPending is the answer of a request of a batch whose turn has not
// come: a cancellation naming it marks it cut before it is served (arm).
func newPending() *cutWriter { return &cutWriter{cancel: func() {}} }

// arm makes c, made by newPending, the answer of its request, now served
// in a context of ctx written to w, and returns that context and its end.
// It reports false, having armed nothing, when the request was cut while
// it waited for its turn: it is not to be served.
func (c *cutWriter) arm(ctx context.Context, w http.ResponseWriter) (context.Context, func(), bool) {
	ctx, cancel := context.WithCancel(ctx)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		cancel()
		return ctx, func() {}, false
	}
	c.ResponseWriter, c.cancel = w, cancel
	return ctx, cancel, true
}

// cancelled reports whether the request was cut for a cancellation (not
// a revocation).
func (c *cutWriter) cancelled() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ended && !c.revoked
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
// one cut for its client's revocation with 401 invalid_token, what its
// client's next request gets; one its client cancelled with 202 and no
// body, what mcp-go answers a POST with nothing to answer (a cancelled
// request gets no answer, as over stdio). The headers mcp-go set for an
// answer it did not write go.
func (c *cutWriter) endCut(base string) {
	c.mu.Lock()
	cut, wrote, revoked := c.ended, c.wrote, c.revoked
	c.mu.Unlock()
	if !cut || wrote {
		return
	}
	h := c.ResponseWriter.Header()
	for k := range h {
		delete(h, k)
	}
	h.Set("X-Content-Type-Options", "nosniff")
	if revoked {
		unauthorized(c.ResponseWriter, base, true)
		return
	}
	c.ResponseWriter.WriteHeader(http.StatusAccepted)
}

// cancellable are the requests being served that a notifications/cancelled
// may name, by scope (idScope) and id (idKey). mcp-go cancels the context
// of the call a cancellation names, but answers it all the same, with
// whatever the tool returned on being cancelled (a TIMEOUT result), where
// MCP says a cancelled request gets no answer and juju's stdio sends none.
// So the front cuts the request's answer too (cutWriter): the POST ends as
// 202 with no body, or, if its answer had begun as an event stream, the
// stream ends without the response.
type cancellable struct {
	mu sync.Mutex
	by map[string]*cutWriter
}

// hold makes cw the answer of the request key names; the returned function
// ends the hold. A second request in flight under the same key is not
// held: the first keeps the key.
func (c *cancellable) hold(key string, cw *cutWriter) func() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by == nil {
		c.by = map[string]*cutWriter{}
	}
	if _, taken := c.by[key]; taken {
		return func() {}
	}
	c.by[key] = cw
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.by[key] == cw {
			delete(c.by, key)
		}
	}
}

// cancel cuts the request key names, if one is being served.
func (c *cancellable) cancel(key string) {
	c.mu.Lock()
	cw := c.by[key]
	c.mu.Unlock()
	if cw != nil {
		cw.cut(false)
	}
}
