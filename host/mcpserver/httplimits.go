package mcpserver

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"sync/atomic"
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
	// MaxBodies bounds the bytes of request bodies held at once, being
	// read or being served, across every client: a body that would pass
	// it is refused with 503 as its bytes arrive. Many clients sending
	// large bodies slowly hold no more than this together.
	MaxBodies int64
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
	DefaultMaxBodies     = 256 << 20
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
		l.MaxBodies = max(DefaultMaxBodies, 4*l.MaxBody)
	}
	if l.MaxSessions <= 0 {
		l.MaxSessions = DefaultMaxSessions
	}
	set(&l.HeaderTimeout, DefaultHeaderTimeout)
	set(&l.BodyTimeout, DefaultBodyTimeout)
	set(&l.IdleTimeout, DefaultIdleTimeout)
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
// arrive; the caller gives back the returned count (held.give) once it is
// done with the body.
func readBody(w http.ResponseWriter, r *http.Request, max int64, timeout time.Duration, held *budget) ([]byte, int64, error) {
	drain := drainLimit(max)
	if r.ContentLength > drain {
		return nil, 0, &errBody{http.StatusRequestEntityTooLarge, "the request body is larger than this server accepts"}
	}
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(timeout))
	body, taken, err := readHeld(r.Body, max+1, held)
	if err == nil && int64(len(body)) <= max {
		rc.SetReadDeadline(time.Time{})
		return body, taken, nil
	}
	held.give(taken)
	if err == nil {
		head := append([]byte(nil), body[:min(headKeep, len(body))]...)
		n := int64(len(body))
		body = nil
		if _, err = io.Copy(io.Discard, http.MaxBytesReader(w, r.Body, drain-n)); err == nil {
			rc.SetReadDeadline(time.Time{})
			return nil, 0, &bodyTooLarge{head}
		}
	}
	var tooBig *http.MaxBytesError
	var netErr net.Error
	switch {
	case errors.Is(err, errBodiesFull):
		return nil, 0, &errBody{http.StatusServiceUnavailable, "juju is holding as many request bodies as it allows at once; retry in a moment"}
	case errors.As(err, &tooBig):
		return nil, 0, &errBody{http.StatusRequestEntityTooLarge, "the request body is larger than this server accepts"}
	case errors.As(err, &netErr) && netErr.Timeout():
		return nil, 0, &errBody{http.StatusRequestTimeout, "the request body came too slowly"}
	default:
		return nil, 0, &errBody{http.StatusBadRequest, "the request body could not be read"}
	}
}

// budget counts bytes held against a bound, safely across goroutines.
type budget struct {
	used atomic.Int64
	max  int64
}

// take counts n more bytes, unless that would pass the bound.
func (b *budget) take(n int64) bool {
	if b.used.Add(n) > b.max {
		b.used.Add(-n)
		return false
	}
	return true
}

// give returns n bytes taken.
func (b *budget) give(n int64) { b.used.Add(-n) }

// errBodiesFull is a body whose next bytes would pass Limits.MaxBodies.
var errBodiesFull = errors.New("request bodies at their bound")

// readHeld reads src to its end or limit bytes, whichever comes first. Its
// buffer grows, by doubling, only as bytes arrive, and each growth is
// taken from held first: a body declared large but sent slowly holds only
// what came. It returns what it read and what it took from held, which
// the caller gives back.
func readHeld(src io.Reader, limit int64, held *budget) ([]byte, int64, error) {
	const first = 4 << 10
	var buf []byte
	var taken int64
	src = io.LimitReader(src, limit)
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) >= limit {
				return buf, taken, nil
			}
			size := min(max(first, 2*int64(cap(buf))), limit)
			if !held.take(size - int64(cap(buf))) {
				return buf, taken, errBodiesFull
			}
			taken += size - int64(cap(buf))
			next := make([]byte, len(buf), size)
			copy(next, buf)
			buf = next
		}
		n, err := src.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, taken, nil
		}
		if err != nil {
			return buf, taken, err
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
