package mcpserver

import (
	"context"
	"sync"
)

// streams counts the open event streams — a session's GET stream, a
// subscriptions/listen request of protocol 2026-07-28 — which last until
// the client hangs up, each holding a connection, its file descriptor and
// a goroutine's buffers. The sessions table bounds sessions, not streams,
// and a listen stream has no session at all; so streams are counted here,
// by principal, with the shares of sessions: one principal other than the
// local one holds at most principalSessions of max, and those principals
// together leave the local one max/localRoom. Past a share a new stream
// is refused; none is ended to make room.
type streams struct {
	mu   sync.Mutex
	max  int
	open map[*stream]struct{}
}

// stream is one open event stream.
type stream struct {
	principal string
	// cred is the OAuth token a listen stream was opened with, checked
	// again by endRevoked; a GET stream's session is checked instead.
	cred   credential
	listen bool
	cancel context.CancelFunc
}

func newStreams(max int) *streams {
	return &streams{max: max, open: map[*stream]struct{}{}}
}

// add counts st, unless a share it falls under is full. The returned
// function ends the count.
func (s *streams) add(st *stream) (remove func(), ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mine, oauth := 0, 0
	for o := range s.open {
		if o.principal == st.principal {
			mine++
		}
		if o.principal != localPrincipal {
			oauth++
		}
	}
	switch {
	case len(s.open) >= s.max,
		st.principal != localPrincipal && mine >= min(principalSessions, s.max),
		st.principal != localPrincipal && oauth >= s.max-s.max/localRoom:
		return nil, false
	}
	s.open[st] = struct{}{}
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.open, st)
	}, true
}

// endUnauthorized ends the listen streams of OAuth principals whose
// token check no longer accepts, failing closed as sessions.unauthorized
// does; it returns how many it ended. check is called without the lock
// held.
func (s *streams) endUnauthorized(check func(credential) bool) int {
	s.mu.Lock()
	var listening []*stream
	for o := range s.open {
		if o.listen && o.principal != localPrincipal {
			listening = append(listening, o)
		}
	}
	s.mu.Unlock()
	n := 0
	for _, o := range listening {
		if o.cred.token == "" || !check(o.cred) {
			o.cancel()
			n++
		}
	}
	return n
}

// count is the number of open streams.
func (s *streams) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.open)
}
