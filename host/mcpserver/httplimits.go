package mcpserver

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"time"
)

// Limits bound what one HTTP client can take from the others. The zero
// value of a field means its default.
type Limits struct {
	// MaxBody is the largest request body read. A larger one is read on
	// to its end, unkept, up to twice MaxBody or 64 MiB, whichever is
	// more, and answered from its first bytes (a tool call gets a
	// TOO_LARGE result); past that it is a 413.
	MaxBody int64
	// HeaderTimeout bounds the reading of a request's headers, and
	// BodyTimeout the reading of its body: a client that sends them drop by
	// drop is cut off, and never delays the others (each connection has its
	// own goroutine).
	HeaderTimeout, BodyTimeout time.Duration
	// IdleTimeout closes keep-alive connections left idle.
	IdleTimeout time.Duration
	// MaxSessions caps the live MCP sessions; a session unused for
	// SessionIdle may be ended to make room for a new one, and one unused
	// for SessionTTL is ended anyway.
	MaxSessions             int
	SessionIdle, SessionTTL time.Duration
	// MaxStreams caps the open event streams (GET streams and
	// subscriptions/listen requests), shared by principal as sessions are
	// (streams).
	MaxStreams int
	// MaxConns caps the open connections. Past it a new connection takes
	// the place of the one idle longest (no request in flight), or is
	// closed at once when every one is busy (connLimit): however many
	// connections clients open, juju keeps file descriptors for its own
	// work. One OAuth client keeps at most an eighth of them busy, and
	// OAuth clients together leave the local token's clients an eighth
	// (busy).
	MaxConns int
	// MaxBodies bounds the bytes of request bodies held at once, being
	// read or being served, across every client: a body that would pass
	// it is refused with 503 as its bytes arrive. Many clients sending
	// large bodies slowly hold no more than this together. One OAuth
	// client holds at most a quarter of it, and OAuth clients together
	// leave the local token's clients a quarter (budget).
	MaxBodies int64
	// WriteTimeout bounds each write of an answer (a JSON answer whole,
	// an SSE event): a client that stops reading is cut off then, and
	// holds its connection no longer.
	WriteTimeout time.Duration
}

// Defaults of Limits.
const (
	DefaultMaxBody       = 8 << 20
	DefaultHeaderTimeout = 10 * time.Second
	DefaultBodyTimeout   = 30 * time.Second
	DefaultIdleTimeout   = 2 * time.Minute
	DefaultMaxSessions   = 64
	DefaultSessionIdle   = 10 * time.Minute
	DefaultSessionTTL    = time.Hour
	DefaultMaxStreams    = 64
	DefaultMaxConns      = 256
	DefaultMaxBodies     = 256 << 20
	DefaultWriteTimeout  = time.Minute
	maxHeaderBytes       = 64 << 10
	maxOAuthBody         = 64 << 10
)

// withDefaults fills the zero fields.
func (l Limits) withDefaults() Limits {
	set := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	if l.MaxBody <= 0 {
		l.MaxBody = DefaultMaxBody
	}
	if l.MaxBodies <= 0 {
		// A principal's share, a quarter, holds two of the largest bodies.
		l.MaxBodies = max(DefaultMaxBodies, bodyShares*2*l.MaxBody)
	}
	if l.MaxSessions <= 0 {
		l.MaxSessions = DefaultMaxSessions
	}
	if l.MaxStreams <= 0 {
		l.MaxStreams = DefaultMaxStreams
	}
	if l.MaxConns <= 0 {
		l.MaxConns = DefaultMaxConns
	}
	set(&l.HeaderTimeout, DefaultHeaderTimeout)
	set(&l.BodyTimeout, DefaultBodyTimeout)
	set(&l.IdleTimeout, DefaultIdleTimeout)
	set(&l.WriteTimeout, DefaultWriteTimeout)
	set(&l.SessionIdle, DefaultSessionIdle)
	set(&l.SessionTTL, DefaultSessionTTL)
	return l
}

// errBody is a request body that could not be read; status says how to
// answer.
type errBody struct {
	status int
	msg    string
}

func (e *errBody) Error() string { return e.msg }

// minDrain is the least a body over the limit may hold and still be read
// to its end and answered from its first bytes, rather than refused with
// a 413 that a client reports as a failed request.
const minDrain = 64 << 20

// drainLimit is the largest body read, kept or not, when limit is the
// largest kept.
func drainLimit(limit int64) int64 { return max(minDrain, 2*limit) }

// bodyTooLarge is a body over the limit that was read to its end: head is
// its first bytes, which say what it was (readDiscardedHead).
type bodyTooLarge struct{ head []byte }

func (*bodyTooLarge) Error() string { return "the request body is larger than this server accepts" }

// readBody reads r's whole body, at most max bytes within timeout, and
// clears the read deadline again once it has read it (a deadline left on
// the connection would end the request's background read, and with it an
// SSE answer). A body over max but within drainLimit is read on to its
// end, unkept, and reported as a *bodyTooLarge with its head. A body it
// could not read keeps the deadline: net/http reads what is left of a short
// body before it answers, and the client decides how fast.
//
// The bytes of the body kept count against held (held.take) as they
// arrive; the caller gives them back (held.release) once it has handed
// the body on, before its answer is written.
func readBody(w http.ResponseWriter, r *http.Request, max int64, timeout time.Duration, held *lease) ([]byte, error) {
	drain := drainLimit(max)
	if r.ContentLength > drain {
		return nil, &errBody{http.StatusRequestEntityTooLarge, "the request body is larger than this server accepts"}
	}
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(timeout))
	body, err := readHeld(r.Body, max+1, held)
	if err == nil && int64(len(body)) <= max {
		rc.SetReadDeadline(time.Time{})
		return body, nil
	}
	held.release()
	if err == nil {
		head := append([]byte(nil), body[:min(headKeep, len(body))]...)
		n := int64(len(body))
		body = nil
		if _, err = io.Copy(io.Discard, http.MaxBytesReader(w, r.Body, drain-n)); err == nil {
			rc.SetReadDeadline(time.Time{})
			return nil, &bodyTooLarge{head}
		}
	}
	var tooBig *http.MaxBytesError
	var netErr net.Error
	switch {
	case errors.Is(err, errShareFull):
		return nil, &errBody{http.StatusServiceUnavailable, "this client has as many request bodies in flight as juju allows one client; wait for its answers, then retry"}
	case errors.Is(err, errBodiesFull):
		return nil, &errBody{http.StatusServiceUnavailable, "juju is holding as many request bodies as it allows at once; retry in a moment"}
	case errors.As(err, &tooBig):
		return nil, &errBody{http.StatusRequestEntityTooLarge, "the request body is larger than this server accepts"}
	case errors.As(err, &netErr) && netErr.Timeout():
		return nil, &errBody{http.StatusRequestTimeout, "the request body came too slowly"}
	default:
		return nil, &errBody{http.StatusBadRequest, "the request body could not be read"}
	}
}

// readHeld reads src to its end or limit bytes, whichever comes first. Its
// buffer grows, by doubling, only as bytes arrive, and each growth is
// taken from held first: a body declared large but sent slowly holds only
// what came.
func readHeld(src io.Reader, limit int64, held *lease) ([]byte, error) {
	const first = 4 << 10
	var buf []byte
	src = io.LimitReader(src, limit)
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) >= limit {
				return buf, nil
			}
			size := min(max(first, 2*int64(cap(buf))), limit)
			if err := held.take(size - int64(cap(buf))); err != nil {
				return buf, err
			}
			next := make([]byte, len(buf), size)
			copy(next, buf)
			buf = next
		}
		n, err := src.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// writeJSON answers with a JSON document.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// httpError answers with a short plain-text error, closing the connection
// when the request body was not read.
func httpError(w http.ResponseWriter, status int, msg string) {
	http.Error(w, msg, status)
}
