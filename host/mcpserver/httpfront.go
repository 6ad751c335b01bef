package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/jujutools/juju/internal/visible"
	"github.com/jujutools/juju/sdk/abi"
)

// mcpPath is the MCP endpoint.
const mcpPath = "/mcp"

// front is juju's handler chain around mcp-go's streamable HTTP server,
// which checks neither Origin nor tokens and would open a session for any
// id. Every request goes through, in order:
//
//  1. Host, X-Forwarded-Host and Origin against the allow-list (403,
//     nothing read);
//  2. the OAuth endpoints, when the path is one of theirs;
//  3. for /mcp: the bearer token (401 with the resource metadata's URL);
//  4. the method, then the body, read within the limits (413, 408);
//  5. the session: an id must be a live one of the same principal (404),
//     a request without one must be initialize (400), and initialize must
//     find room under the cap (503);
//  6. a request that may take long (one with an id, an event stream) must
//     find room under its principal's share of busy connections (a tool
//     call gets TOO_LARGE, anything else 503: busy);
//  7. an event stream (a session's GET, subscriptions/listen) must find
//     room under the principal's share of streams (503); a session's GET
//     stream replaces the session's older one, which is closed, once that
//     one is 10 s old (409 before);
//  8. mcp-go, writing through rpcWriter.
type front struct {
	origins  origins
	auth     authenticator
	oauth    Authorizer // may be nil
	sessions *sessions
	streams  *streams
	limits   Limits
	mcp      http.Handler
	log      *slog.Logger
	// refused audits a tool call refused before mcp-go saw it.
	refused func(ctx context.Context, tool string, args any, code abi.Code)
	// forget drops what juju's MCP server keeps of a session whose
	// initialize was served but never answered (dropUnbound).
	forget func(session string)
	// stateless are the tool calls of protocol 2026-07-28 being served.
	stateless statelessCalls
	// bodies counts the bytes of request bodies held (Limits.MaxBodies).
	bodies budget
	// busy counts the requests in flight that keep their connections busy,
	// by principal (httpbusy.go).
	busy *busy
	// clientCalls are the OAuth clients' requests being served, ended when
	// their client is revoked (httpinflight.go).
	clientCalls clientCalls
	// cancellable are the requests a notifications/cancelled may name
	// (httpinflight.go).
	cancellable cancellable
	// ids are the request ids swapped for juju's (ids.go).
	ids *idMap
	// jobs are the background jobs, by principal (host.Host); nil when
	// the front serves without a host (tests).
	jobs jobOwners
	// direct serves the tools/call POSTs of established sessions itself
	// (httpcall.go); nil when the front serves without a Server (tests).
	direct directCalls
	// refusedHosts are the Host values refused so far that the owner was
	// told of (hostRefused).
	refusedHostsMu sync.Mutex
	refusedHosts   map[string]bool
	// refusedOrigins are the Origin values, as rendered, refused so far
	// that the owner was told of (originRefused); under refusedHostsMu.
	refusedOrigins map[string]bool
}

// maxRefusedHosts bounds the refused Host values the owner is told of, and
// apart from them the refused Origin values: a web page trying DNS
// rebinding chooses them, and fills no log.
const maxRefusedHosts = 8

// maxRefusedShown bounds the characters of a refused Host's or Origin's
// rendering that the owner is shown (a real one is far shorter).
const maxRefusedShown = 200

// shownRefused renders a refused Host or Origin for the owner's terminal: a
// web page or a client chose it, so every character shows (internal/
// visible: a look-alike of the owner's own host shows as an escape), and a
// long one is clipped, saying how much was left out.
func shownRefused(v string) string {
	shown, left := visible.Clip(visible.String(v), maxRefusedShown)
	if left > 0 {
		shown += fmt.Sprintf(" (%d characters more)", left)
	}
	return shown
}

// hostRefused tells the owner, once per value, of a request refused for its
// Host. The common cause is a tunnel that juju serve was not started for:
// no --public-url, or the address of a quick tunnel started anew, which
// changes each time; nothing on the owner's side would say so, the client
// only reports that it could not connect. X-Forwarded-Host, unlike Host,
// may hold any character: the value is shown by shownRefused.
func (f *front) hostRefused(host string) {
	if _, ok := f.origins.hostBase(host, ""); ok {
		return // the Host was fine: the Origin was refused
	}
	f.refusedHostsMu.Lock()
	defer f.refusedHostsMu.Unlock()
	if f.refusedHosts[host] || len(f.refusedHosts) >= maxRefusedHosts {
		return
	}
	if f.refusedHosts == nil {
		f.refusedHosts = map[string]bool{}
	}
	f.refusedHosts[host] = true
	msg := "refused a request for a host juju serve does not answer to (403, DNS rebinding protection); " +
		"if it is your tunnel's address, restart juju serve with --public-url https://HOST"
	if f.origins.public != nil {
		msg += " (a quick tunnel's address changes each time it starts; --public-url is " + f.origins.public.String() + ")"
	}
	f.log.Warn(msg, "host", shownRefused(host))
}

// originRefused tells the owner, once per value, of a request refused for
// its Origin alone (its Host was juju serve's): a client that sends an
// Origin juju serve does not answer to (a browser-based MCP client, a
// connector that names its web app) otherwise fails with nothing on the
// owner's side. No setting allows another Origin, and the line says so.
// A web page chooses the value: it is rendered by internal/visible and
// clipped, and nothing else of the request is named.
func (f *front) originRefused(origin string) {
	shown := shownRefused(origin)
	f.refusedHostsMu.Lock()
	defer f.refusedHostsMu.Unlock()
	if f.refusedOrigins[shown] || len(f.refusedOrigins) >= maxRefusedHosts {
		return
	}
	if f.refusedOrigins == nil {
		f.refusedOrigins = map[string]bool{}
	}
	f.refusedOrigins[shown] = true
	msg := "refused a request from a web origin juju serve does not answer to (403, DNS rebinding protection); " +
		"an Origin must name juju serve's own address (loopback with its port, or the host of --public-url, with its scheme), " +
		"and no setting allows another, even one you trust: a client that sends this Origin cannot use juju serve"
	if f.origins.public != nil {
		msg += " (--public-url is " + f.origins.public.String() + ")"
	}
	f.log.Warn(msg, "origin", shown)
}

// hostsAllowed reports whether r's Host and X-Forwarded-Host are allowed,
// so that a refusal of r was for its Origin.
func (f *front) hostsAllowed(r *http.Request) bool {
	if _, ok := f.origins.hostBase(r.Host, ""); !ok {
		return false
	}
	if vals, present := r.Header[forwardedHost]; present {
		if len(vals) != 1 {
			return false
		}
		if _, ok := f.origins.hostBase(vals[0], ""); !ok {
			return false
		}
	}
	return true
}

func (f *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	tw := &timedWriter{ResponseWriter: w, rc: http.NewResponseController(w), timeout: f.limits.WriteTimeout}
	defer tw.done()
	// Once served, the connection waits on its client to read the answer.
	defer answered(r)
	w = tw
	if r.ContentLength != 0 {
		// A body may follow. Whoever reads it (readBody, the OAuth
		// endpoints, or net/http draining what a refusal left unread) does
		// so within BodyTimeout, and a refusal closes the connection rather
		// than wait for the rest: a client that drips its body, token or
		// no token, holds a connection for at most BodyTimeout.
		http.NewResponseController(w).SetReadDeadline(time.Now().Add(f.limits.BodyTimeout))
		w = &closeOnRefusal{ResponseWriter: w}
		receiving(r)
	}
	base, ok := f.origins.base(r)
	if !ok {
		f.log.Debug("refused a request for its Host or Origin", "method", r.Method, "path", r.URL.Path)
		f.hostRefused(r.Host)
		if fwd := r.Header.Values(forwardedHost); len(fwd) == 1 {
			f.hostRefused(fwd[0])
		}
		if vals := r.Header.Values("Origin"); len(vals) == 1 && f.hostsAllowed(r) {
			f.originRefused(vals[0])
		}
		httpError(w, http.StatusForbidden, "forbidden: this Host or Origin is not allowed (DNS rebinding protection); "+
			"juju serve answers to loopback with its port and to the host of its --public-url")
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if p := f.origins.local(base, r.URL.Path); p != r.URL.Path {
		r.URL.Path, r.URL.RawPath = p, ""
	}
	switch {
	case r.URL.Path == mcpPath:
		f.serveMCP(w, r, base)
	case f.oauth != nil && f.oauth.Owns(r.URL.Path):
		if r.ContentLength != 0 {
			// Read here, so that the connection counts as serving only
			// once the body is in (received).
			b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxOAuthBody))
			r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(b), errReader{err}))
		}
		received(r)
		f.oauth.ServeOAuth(w, r, base)
	default:
		http.NotFound(w, r)
	}
}

func (f *front) serveMCP(w http.ResponseWriter, r *http.Request, base string) {
	principal, presented := f.auth.check(r, base+mcpPath)
	if principal == "" {
		f.log.Debug("refused a request without a valid token", "method", r.Method, "token_presented", presented)
		unauthorized(w, base, presented)
		return
	}
	// A call the front refuses itself is audited under the session's
	// client (inSession), once the session is checked as the principal's.
	r = r.WithContext(withSession(r.Context(), r.Header.Get(server.HeaderKeySessionID)))
	// An OAuth principal's sessions last as long as the token they last
	// presented (endRevoked).
	var cred credential
	if principal != localPrincipal {
		tok, _ := bearer(r)
		cred = credential{token: tok, resource: base + mcpPath}
	}
	switch r.Method {
	case http.MethodPost, http.MethodGet, http.MethodDelete:
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		httpError(w, http.StatusMethodNotAllowed, "method not allowed")
		return
	}
	var body []byte
	// held is the budget the body takes, given back once the body has
	// been handed on (rpcWriter's first write, serveBatch), so that a
	// client that reads no answer holds nothing of it.
	held := newLease(&f.bodies, principal)
	defer held.release()
	if r.Method == http.MethodPost {
		var err error
		body, err = readBody(w, r, f.limits.MaxBody, f.limits.BodyTimeout, held)
		if err != nil {
			if big := (*bodyTooLarge)(nil); errors.As(err, &big) {
				f.tooLarge(w, r, principal, cred, big.head)
				return
			}
			var eb *errBody
			errors.As(err, &eb)
			if eb.status == http.StatusServiceUnavailable {
				w.Header().Set("Retry-After", "1")
			}
			httpError(w, eb.status, eb.msg)
			return
		}
		// On a copy: net/http's own request keeps its own body.
		r = r.WithContext(r.Context())
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	received(r)
	msg := peek(r, body)
	if msg.badID {
		writeJSON(w, http.StatusOK, invalidRequest(nil, badIDMessage))
		return
	}
	if msg.refusal != nil {
		writeJSON(w, http.StatusOK, msg.refusal)
		return
	}
	if id := r.Header.Get(server.HeaderKeySessionID); id != "" {
		if !f.sessions.use(id, principal, cred) {
			httpError(w, http.StatusNotFound, "unknown session: initialize a new one")
			return
		}
	} else if !msg.modern && !msg.initialize && !(r.Method == http.MethodPost && !msg.valid) {
		// A malformed body gets mcp-go's parse error; anything else of the
		// session protocols needs a session.
		httpError(w, http.StatusBadRequest, "missing Mcp-Session-Id: initialize first")
		return
	}
	if msg.stray {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if counted(r, msg) {
		done, ok := f.busy.take(principal)
		if !ok {
			f.refuseBusy(w, r, principal, msg, f.busy.share())
			return
		}
		defer done()
	}
	if msg.initialize {
		evict, ok := f.sessions.admit(principal)
		if !ok {
			w.Header().Set("Retry-After", "30")
			httpError(w, http.StatusServiceUnavailable, "too many sessions: end one (DELETE) or retry later")
			return
		}
		defer f.sessions.release(principal)
		if evict != "" {
			f.endSession(evict, "ended an idle HTTP session to make room for a new one")
		}
	}
	if msg.modern {
		switch {
		case msg.call != "":
			defer f.stateless.start(msg.call, principal)()
		case msg.cancels != "" && f.stateless.othersHold(msg.cancels, principal):
			f.log.Debug("dropped a stateless cancellation naming another principal's call")
			w.WriteHeader(http.StatusAccepted)
			return
		}
	}
	ctx := withPrincipal(r.Context(), principal)
	if r.Method == http.MethodPost && (msg.id != nil || msg.batch) {
		// Served so that a revocation or a cancellation can end it
		// (httpinflight.go).
		var cw *cutWriter
		var done func()
		ctx, cw, done = newCutWriter(ctx, w)
		defer done()
		defer cw.endCut(base)
		w = cw
		if client := oauthClient(principal); client != "" {
			defer f.clientCalls.hold(cw, client)()
		}
		if !msg.batch {
			defer f.cancellable.hold(idScope(r, principal)+"\x00"+idKey(msg.id), cw)()
		}
	}
	if msg.cancels != "" && r.Method == http.MethodPost {
		f.cancellable.cancel(idScope(r, principal) + "\x00" + msg.cancels)
	}
	if msg.initialize {
		var made *string
		ctx, made = withMade(ctx)
		defer f.dropUnbound(made)
	}
	if r.Method == http.MethodPost && isBatch(body) {
		f.serveBatch(w, r.WithContext(ctx), body, held)
		return
	}
	ctx, end, ok := f.holdStream(ctx, w, r, principal, cred, msg)
	if !ok {
		return
	}
	defer end()
	if msg.badCall != nil {
		f.refusedCall(ctx, msg.badCall)
		writeJSON(w, http.StatusOK, msg.badCall.answer)
		return
	}
	if msg.deep != nil {
		writeJSON(w, http.StatusOK, f.deepRefusal(ctx, *msg.deep))
		return
	}
	var swap idSwap
	if r.Method == http.MethodPost {
		swapped, s, done := f.swapIDs(body, msg, idScope(r, principal))
		defer done()
		if s.private != nil || !bytes.Equal(swapped, body) {
			body, swap = swapped, s
			setBody(r, body)
		}
	}
	if msg.call != "" && r.Method == http.MethodPost {
		var read []byte
		if ctx, read = readableCall(ctx, body); unreadableArguments(ctx) != nil {
			body = read
			setBody(r, read)
		}
	}
	if f.direct != nil && msg.call != "" && r.Method == http.MethodPost && !msg.modern &&
		f.direct.serveCall(ctx, w, r, body, msg.tool, swap, held.release) {
		return
	}
	ww := &rpcWriter{ResponseWriter: w, onSession: func(id string) { f.sessions.bind(id, principal, cred) }, onAnswer: held.release, swap: swap}
	f.mcp.ServeHTTP(ww, r.WithContext(ctx))
}

// directCalls serves tools/call POSTs without mcp-go's POST handler
// (httpcall.go).
type directCalls interface {
	// serveCall serves the call, or reports false having written nothing.
	serveCall(ctx context.Context, w http.ResponseWriter, r *http.Request, body []byte, tool string, swap idSwap, started func()) bool
}

// holdStream counts the event stream a request opens, if it opens one: a
// session's GET stream, tied to its session (sessions.attach), or a
// subscriptions/listen request. It returns the context to serve the
// request in and the stream's end, or answers a refusal and returns false:
// 503 past the principal's share of streams, 409 for a GET stream on a
// session whose stream is younger than replaceAfter. A GET stream replaces the
// session's older one, whose connection is closed as its handler returns
// (end panics with http.ErrAbortHandler): a tunnel that dropped its client
// without a word is told so, and frees what it held.
func (f *front) holdStream(ctx context.Context, w http.ResponseWriter, r *http.Request, principal string, cred credential, msg request) (context.Context, func(), bool) {
	id := r.Header.Get(server.HeaderKeySessionID)
	get := r.Method == http.MethodGet && id != ""
	if !get && !msg.listen {
		return ctx, func() {}, true
	}
	ctx, cancel := context.WithCancel(ctx)
	detach, replaced := func() {}, func() bool { return false }
	if get {
		rc := http.NewResponseController(w)
		cut := func() {
			cancel()
			// A write blocked on a connection that reads nothing fails now.
			rc.SetWriteDeadline(time.Now())
		}
		var ok bool
		if detach, replaced, ok = f.sessions.attach(id, cancel, cut); !ok {
			cancel()
			httpError(w, http.StatusConflict, "this session's GET stream was opened less than 10 s ago, and a session has one at a time: use that one, or open a new one once it is older")
			return ctx, nil, false
		}
	}
	remove, ok := f.streams.add(&stream{principal: principal, cred: cred, listen: msg.listen, cancel: cancel})
	if !ok {
		detach()
		cancel()
		f.log.Debug("refused an event stream past its principal's share", "listen", msg.listen)
		w.Header().Set("Retry-After", "30")
		httpError(w, http.StatusServiceUnavailable, "too many open event streams: close one (a GET stream, a subscriptions/listen request), or retry later")
		return ctx, nil, false
	}
	return ctx, func() {
		remove()
		detach()
		cancel()
		if replaced() {
			f.log.Debug("closed a GET stream replaced by a newer one on its session")
			panic(http.ErrAbortHandler)
		}
	}, true
}

// tooLarge answers a POST whose body was over the limit and read to its
// end unkept, from its first bytes (tooLargeAnswer), as stdio answers a
// line too long: a tool call gets a TOO_LARGE result as its own answer,
// which the model reads and acts on, where a 413 is a failed request to
// the client. The session is checked, and marked used with the request's
// credential, as for any request, and a body whose head names no request
// is a 413.
func (f *front) tooLarge(w http.ResponseWriter, r *http.Request, principal string, cred credential, head []byte) {
	h := readDiscardedHead(head)
	if h.id == nil || h.method == "" {
		httpError(w, http.StatusRequestEntityTooLarge, "the request body is larger than this server accepts")
		return
	}
	if id := r.Header.Get(server.HeaderKeySessionID); id != "" {
		if !f.sessions.use(id, principal, cred) {
			httpError(w, http.StatusNotFound, "unknown session: initialize a new one")
			return
		}
	} else if !mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion)) {
		httpError(w, http.StatusBadRequest, "missing Mcp-Session-Id: initialize first")
		return
	}
	if h.method == string(mcp.MethodToolsCall) && f.refused != nil {
		f.refused(withPrincipal(r.Context(), principal), h.tool, nil, abi.TooLarge)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write(tooLargeAnswer(h, int(f.limits.MaxBody)))
}

// closeOnRefusal closes the connection after an answer of 400 or more to a
// request with a body: net/http would otherwise read the rest of a body the
// handler left unread (up to 256 KiB) before it answers, at the client's
// pace.
type closeOnRefusal struct{ http.ResponseWriter }

func (c *closeOnRefusal) WriteHeader(code int) {
	if code >= http.StatusBadRequest {
		c.Header().Set("Connection", "close")
	}
	c.ResponseWriter.WriteHeader(code)
}

// Flush keeps SSE streaming through the wrapper.
func (c *closeOnRefusal) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (c *closeOnRefusal) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// endSession ends a session through mcp-go, so its state there goes too,
// and its GET streams with it; why is logged.
func (f *front) endSession(id, why string) {
	f.dropSession(id)
	f.log.Info(why)
}

func (f *front) dropSession(id string) {
	req, err := http.NewRequest(http.MethodDelete, mcpPath, nil)
	if err != nil {
		return
	}
	req.Header.Set(server.HeaderKeySessionID, id)
	f.mcp.ServeHTTP(discard{}, req)
	f.sessions.Terminate(id) // mcp-go ends only the sessions it knows
}

// dropUnbound ends the session made for an initialize request, *made, when
// its answer, which gives it to the request's principal, was never written
// (sessions.ResolveSessionIdManager). Nothing is logged: a client chooses
// how often this happens.
func (f *front) dropUnbound(made *string) {
	if *made != "" && f.sessions.unbound(*made) {
		f.dropSession(*made)
		if f.forget != nil {
			f.forget(*made)
		}
	}
}

// recheckEvery is how often the OAuth tokens behind open sessions are
// checked again: a revoked client's session and GET stream, or one whose
// token expired, end within this time (its requests are refused at once).
const recheckEvery = 10 * time.Second

// endRevoked ends every session, and every listen stream, whose OAuth
// token is no longer valid: revoked with juju clients revoke, its grant
// dropped, or expired; and the requests in flight and background jobs of
// every client revoked.
func (f *front) endRevoked() {
	if f.oauth == nil {
		return
	}
	valid := func(c credential) bool { return f.oauth.Valid(c.token, c.resource) }
	for _, id := range f.sessions.unauthorized(valid) {
		f.endSession(id, "ended an HTTP session whose OAuth token expired or was revoked")
	}
	if n := f.streams.endUnauthorized(valid); n > 0 {
		f.log.Info("ended subscriptions/listen streams whose OAuth token expired or was revoked", "streams", n)
	}
	f.endRevokedJobs()
	if n := f.clientCalls.cut(f.oauth.Live); n > 0 {
		f.log.Warn("ended the requests in flight of a revoked OAuth client", "requests", n)
	}
}

// jobOwners is what the front needs of the background jobs (host.Host).
type jobOwners interface {
	JobOwners() []string
	EndJobs(principal string) int
}

// endRevokedJobs kills the background jobs of every OAuth client that may
// no longer obtain access: revoked, or its grants dropped. A job belongs
// to its principal alone (no other lists or cancels it), so one left
// behind by a revoked client would run to its end, up to its two-hour
// timeout, with nobody able to stop it but by hand. A token merely expired
// leaves the jobs be: the client refreshes and goes on.
func (f *front) endRevokedJobs() {
	if f.jobs == nil {
		return
	}
	for _, p := range f.jobs.JobOwners() {
		// The store knows the client by its id, not by the principal.
		client, ok := strings.CutPrefix(p, oauthPrincipal)
		if !ok || f.oauth.Live(client) {
			continue
		}
		if n := f.jobs.EndJobs(p); n > 0 {
			f.log.Warn("killed the background jobs of a revoked OAuth client", "client", p, "jobs", n)
		}
	}
}

// watchGrants runs endRevoked every recheckEvery until ctx is done.
func (f *front) watchGrants(ctx context.Context) {
	t := time.NewTicker(recheckEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f.endRevoked()
		}
	}
}

// request is what the front needs to know of a request before mcp-go.
type request struct {
	valid bool // the body is JSON
	batch bool // the body is a JSON array: a batch
	badID bool // a request whose id is neither a string nor a number
	// refusal answers, by its id, a request refused before mcp-go: one
	// carrying result or error as well, one whose jsonrpc member is not a
	// string, or whose method is not a name.
	refusal    any
	initialize bool   // a legacy initialize request
	call       string // a tools/call request: its id (idKey)
	tool       string // a tools/call request's tool, when a string
	cancels    string // a notifications/cancelled: the id it names (idKey)
	modern     bool   // protocol 2026-07-28 or later: no sessions
	listen     bool   // a subscriptions/listen request: an event stream
	// id is a request's id, cancelID the id a notifications/cancelled
	// names, each as written (ids.go).
	id, cancelID json.RawMessage
	// badCall is the refusal of a tools/call whose params name no tool as
	// a string (callname.go), nil for any other.
	badCall *refusedCall
	// deep is the head of a request nested deeper than Go's JSON reads,
	// read from its first bytes (deepHead): it is answered by its id
	// before mcp-go, which answered a parse error of id null.
	deep *msgHead
	// stray is set for a notification whose params is not an object
	// (strayParams): it is dropped, answered 202 as one juju ignores is.
	stray bool
}

// peek classifies a request the way mcp-go will: the era from the
// Mcp-Protocol-Version header or the body's _meta.
func peek(r *http.Request, body []byte) request {
	m := request{modern: mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion))}
	if r.Method != http.MethodPost {
		return m
	}
	if isBatch(body) {
		// A batch holding a request nested too deep is served all the
		// same, that request refused by its id (serveBatch).
		m.valid, m.batch = json.Valid(body) || tooDeep(json.Unmarshal(body, new(json.RawMessage))) && splitBatch(body) != nil, true
		return m
	}
	return peekMessage(m, body)
}

// peekMessage reads one JSON-RPC message of a POST into m, which holds
// what the headers said.
func peekMessage(m request, body []byte) request {
	var head struct {
		JSONRPC   json.RawMessage `json:"jsonrpc"`
		RawMethod json.RawMessage `json:"method"`
		Method    string          `json:"-"`
		ID        json.RawMessage `json:"id"`
		Params    json.RawMessage `json:"params"`
		Result    json.RawMessage `json:"result"`
		Error     json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(body, &head); err != nil {
		if h := deepHead(body, err); h.deep {
			return deepRequest(m, h)
		}
		// Not an object of the expected shape: mcp-go answers a parse error
		// before it looks at sessions.
		return m
	}
	m.valid = true
	json.Unmarshal(head.RawMethod, &head.Method)
	m.badID = head.Method != "" && head.ID != nil && !validID(head.ID)
	switch {
	case m.badID:
	case head.Method != "" && (len(head.Result) > 0 || len(head.Error) > 0):
		m.refusal = invalidRequest(asWritten(head.ID), badShapeMessage)
	case len(head.ID) == 0:
	case head.Method == "" && head.RawMethod != nil && validID(head.ID) && len(head.Result) == 0 && len(head.Error) == 0:
		// A request whose method is not a name: mcp-go took one of ""
		// or null for a response and answered 202, one of another type
		// for unparsable with id null; either way its client waited.
		m.refusal = invalidRequest(asWritten(head.ID), badMethodMessage)
	case head.Method != "" && validID(head.ID) && !validVersion(head.JSONRPC):
		// mcp-go answers it as unparsable, with id null.
		m.refusal = invalidRequest(asWritten(head.ID), badVersionMessage)
	}
	m.stray = head.Method != "" && len(head.ID) == 0 && notObject(head.Params)
	var params struct {
		Meta      *mcp.Meta       `json:"_meta"`
		RequestID json.RawMessage `json:"requestId"`
		Name      json.RawMessage `json:"name"`
	}
	paramsErr := json.Unmarshal(head.Params, &params)
	if paramsErr == nil {
		m.modern = m.modern || mcp.IsModernProtocol(params.Meta.ProtocolVersion())
	}
	m.initialize = !m.modern && head.Method == string(mcp.MethodInitialize)
	m.listen = m.modern && head.Method == string(mcp.MethodSubscriptionsListen)
	switch {
	case head.Method == string(mcp.MethodToolsCall) && validID(head.ID):
		m.call = idKey(head.ID)
		json.Unmarshal(params.Name, &m.tool)
		if paramsErr != nil || len(params.Name) > 0 && params.Name[0] != '"' {
			m.badCall = namelessCall(head.ID, head.Params)
		}
	case head.Method == string(mcp.MethodNotificationCancelled) && len(params.RequestID) > 0:
		m.cancels = idKey(params.RequestID)
		m.cancelID = params.RequestID
	}
	if head.Method != "" && len(head.ID) > 0 && validID(head.ID) && m.refusal == nil {
		m.id = head.ID
	}
	return m
}

// deepRequest is m for h, a request nested too deep to read: a request
// with its id, as the session, busy and stateless checks see it, whose
// answer is deepRefusal's.
func deepRequest(m request, h msgHead) request {
	m.valid, m.id, m.deep = true, h.ID, &h
	m.initialize = !m.modern && h.Method == string(mcp.MethodInitialize)
	if h.Method == string(mcp.MethodToolsCall) {
		m.call, m.tool = idKey(h.ID), h.tool
	}
	return m
}

// deepRefusal is the answer to head, a request nested too deep to read,
// alone or in a batch; a tools/call is audited as refused, as over stdio.
func (f *front) deepRefusal(ctx context.Context, head msgHead) any {
	answer, call := deepAnswer(head)
	if call && f.refused != nil {
		f.refused(ctx, head.tool, nil, abi.InvalidArgument)
	}
	return answer
}

// errReader ends a body read ahead with the error its reading met: io.EOF
// when none.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err == nil {
		return 0, io.EOF
	}
	return 0, e.err
}

// discard is a response writer that drops everything.
type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) WriteHeader(int)             {}
