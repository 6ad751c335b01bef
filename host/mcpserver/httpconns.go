package mcpserver

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// connLimit bounds the connections open at once, so that clients cannot
// take every file descriptor juju has (the owner's own tools would then
// fail to open files). Past max, a new connection takes the place of the
// one waiting longest for a request — just accepted, or idle between
// requests — which holds nothing but its descriptor; when every one has a
// request in flight, the new connection is closed at once. Requests in
// flight are bounded elsewhere: by their principals' shares (busy), and
// bodies by their budget and timeouts.
//
// Shedding waiting connections, rather than refusing new ones, keeps a
// client that opens connections and sends nothing from locking the others
// out: each connection it opens pushes out one of its own. A request whose
// body is still arriving is waited for too, not served (the front says so:
// receiving, received), so a client that drips bodies, token or no token,
// pushes out its own kind as well, rather than have every connection "in
// flight" and the owner's closed as they come.
type connLimit struct {
	net.Listener
	max int
	log *slog.Logger
	now func() time.Time

	mu   sync.Mutex
	open map[net.Conn]*connEntry
}

// connEntry is what connLimit knows of an open connection.
type connEntry struct {
	busy  bool      // a request in flight
	since time.Time // when it was accepted or last went idle
}

func newConnLimit(l net.Listener, max int, log *slog.Logger) *connLimit {
	return &connLimit{Listener: l, max: max, log: log, now: time.Now, open: map[net.Conn]*connEntry{}}
}

// Accept returns the next connection there is room for.
func (l *connLimit) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.admit(c) {
			return c, nil
		}
		c.Close()
		l.log.Debug("closed a new connection: every open one has a request in flight", "open", l.max)
	}
}

// admit records c, making room by closing the longest waiting connection
// when needed; it reports false when there is no room.
func (l *connLimit) admit(c net.Conn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.open) >= l.max {
		var oldest net.Conn
		var when time.Time
		for o, e := range l.open {
			if !e.busy && (oldest == nil || e.since.Before(when)) {
				oldest, when = o, e.since
			}
		}
		if oldest == nil {
			return false
		}
		oldest.Close()
		delete(l.open, oldest)
	}
	l.open[c] = &connEntry{since: l.now()}
	return true
}

// track follows a connection's state; it is the http.Server's ConnState.
func (l *connLimit) track(c net.Conn, state http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.open[c]
	switch {
	case state == http.StateClosed || state == http.StateHijacked:
		delete(l.open, c)
	case !ok:
	case state == http.StateActive:
		e.busy = true
	case state == http.StateIdle:
		e.busy, e.since = false, l.now()
	}
}

// connKey carries, in a request's context, its connection and the limit
// that counts it (connLimit.context).
type connKey struct{}

type connOf struct {
	l *connLimit
	c net.Conn
}

// context is the http.Server's ConnContext: it lets the front say when a
// request's body is still arriving (receiving, received).
func (l *connLimit) context(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, connOf{l, c})
}

// setBusy marks r's connection as serving a request, or waiting for the
// client; waitsFromNow also restarts the time it has waited.
func setBusy(r *http.Request, busy, waitsFromNow bool) {
	co, ok := r.Context().Value(connKey{}).(connOf)
	if !ok {
		return
	}
	co.l.mu.Lock()
	defer co.l.mu.Unlock()
	if e, ok := co.l.open[co.c]; ok {
		e.busy = busy
		if waitsFromNow {
			e.since = co.l.now()
		}
	}
}

// receiving says r's body is still to come: its connection waits for the
// client, and may make room for a new one, as an idle one does.
func receiving(r *http.Request) { setBusy(r, false, false) }

// received says r has arrived whole: its connection serves it.
func received(r *http.Request) { setBusy(r, true, false) }

// answered says r's handler has returned: what is left of its answer,
// which net/http flushes, waits on the client reading it, so the
// connection waits as an idle one does, from now, and may make room for a
// new one. A client that pipelines requests and reads no answer blocks
// that flush, each time for up to Limits.WriteTimeout: counted in flight,
// 256 such connections, which need no token (GET /authorize), had juju
// close every new one, the owner's too, for as long as they went on.
func answered(r *http.Request) { setBusy(r, false, true) }

// count is the number of open connections.
func (l *connLimit) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.open)
}
