package mcpserver

import (
	"context"
	"crypto/rand"
	b64 "encoding/base64"
	"errors"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"
)

// sessions is the HTTP front's session table, given to mcp-go as its
// session id manager. mcp-go's own managers either accept any well-formed
// id or use guessable UUIDs; here an id is 32 random bytes, known only
// once issued, and bound to the principal (the token) that opened it, so
// an unknown, altered or foreign id is refused with 404 and never opens a
// session by accident. The table is capped: past the cap, the least
// recently used session idle longer than evictIdle makes room, else a new
// session is refused.
type sessions struct {
	mu        sync.Mutex
	byID      map[string]*sessionEntry
	reserved  int // initialize requests in flight
	max       int
	evictIdle time.Duration
	now       func() time.Time
}

type sessionEntry struct {
	owner   string // the principal; "" until the initialize answer is written
	last    time.Time
	streams map[*int]context.CancelFunc // the session's open GET streams
}

var _ server.SessionIdManager = (*sessions)(nil)

// errUnknownSession is mcp-go's cue to answer 404.
var errUnknownSession = errors.New("unknown session")

func newSessions(max int, evictIdle time.Duration) *sessions {
	return &sessions{byID: map[string]*sessionEntry{}, max: max, evictIdle: evictIdle, now: time.Now}
}

// sessionPrefix starts every session id.
const sessionPrefix = "juju-"

// Generate implements server.SessionIdManager: a new, unowned session.
func (s *sessions) Generate() string {
	b := make([]byte, 32)
	rand.Read(b)
	id := sessionPrefix + b64.RawURLEncoding.EncodeToString(b)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byID[id] = &sessionEntry{last: s.now()}
	return id
}

// Validate implements server.SessionIdManager: only issued ids are valid.
func (s *sessions) Validate(id string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.byID[id]; !ok {
		return false, errUnknownSession
	}
	return false, nil
}

// Terminate implements server.SessionIdManager: the session ends (DELETE,
// or mcp-go's idle sweep).
func (s *sessions) Terminate(id string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.byID[id]; ok {
		e.closeStreams()
	}
	delete(s.byID, id)
	return false, nil
}

// attach ties a GET stream to its session: ending the session (DELETE,
// eviction, the idle sweep) ends the stream, which mcp-go would leave
// open. The returned function detaches it.
func (s *sessions) attach(id string, cancel context.CancelFunc) func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok {
		cancel()
		return func() {}
	}
	key := new(int)
	if e.streams == nil {
		e.streams = map[*int]context.CancelFunc{}
	}
	e.streams[key] = cancel
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(e.streams, key)
	}
}

func (e *sessionEntry) closeStreams() {
	for _, cancel := range e.streams {
		cancel()
	}
	e.streams = nil
}

// bind gives an unowned session to its principal, once.
func (s *sessions) bind(id, owner string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.byID[id]; ok && e.owner == "" {
		e.owner = owner
	}
}

// use reports whether id is a live session of owner, and marks it used.
func (s *sessions) use(id, owner string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok || e.owner == "" || e.owner != owner {
		return false
	}
	e.last = s.now()
	return true
}

// admit reserves room for a new session. When the table is full it names a
// session to end first (the least recently used, if idle long enough), or
// refuses. release must follow an admit that succeeded.
func (s *sessions) admit() (evict string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.byID)+s.reserved < s.max {
		s.reserved++
		return "", true
	}
	var oldest string
	var when time.Time
	for id, e := range s.byID {
		if oldest == "" || e.last.Before(when) {
			oldest, when = id, e.last
		}
	}
	if oldest == "" || s.now().Sub(when) < s.evictIdle {
		return "", false
	}
	s.byID[oldest].closeStreams()
	delete(s.byID, oldest)
	s.reserved++
	return oldest, true
}

func (s *sessions) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reserved--
}

// count is the number of live sessions.
func (s *sessions) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byID)
}
