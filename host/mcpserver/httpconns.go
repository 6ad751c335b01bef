package mcpserver

import (
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
// flight are bounded elsewhere: streams by their shares, bodies by their
// budget and timeouts.
//
// Shedding waiting connections, rather than refusing new ones, keeps a
// client that opens connections and sends nothing from locking the others
// out: each connection it opens pushes out one of its own.
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

// count is the number of open connections.
func (l *connLimit) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.open)
}
