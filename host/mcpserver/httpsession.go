package mcpserver

import (
	"context"
	"crypto/rand"
	b64 "encoding/base64"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
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
// session is refused. One principal other than the local one holds at
// most principalSessions, and those principals together leave the local
// one max/localRoom: an OAuth client cannot take every session.
type sessions struct {
	mu        sync.Mutex
	byID      map[string]*sessionEntry
	reserved  map[string]int // initialize requests in flight, by principal
	max       int
	evictIdle time.Duration
	now       func() time.Time
}

// principalSessions caps one OAuth client's sessions: a client opens one
// per connection (a conversation, a window), and 16 is many windows while
// leaving most of the 64 to the others.
const principalSessions = 16

// localRoom divides the cap: OAuth clients together leave the owner's
// clients (the local token) an eighth of it, 8 of 64 sessions.
const localRoom = 8

type sessionEntry struct {
	owner  string // the principal; "" until the initialize answer is written
	last   time.Time
	stream *getStream // the session's GET stream; nil when none
	// cred is the bearer token of an OAuth principal's last request on
	// the session and the resource it was checked for: the session lasts
	// only as long as that token is valid (sessions.unauthorized).
	cred credential
}

// credential is an OAuth access token as a session last presented it.
type credential struct{ token, resource string }

var (
	_ server.SessionIdManager         = (*sessions)(nil)
	_ server.SessionIdManagerResolver = (*sessions)(nil)
)

// errUnknownSession is mcp-go's cue to answer 404.
var errUnknownSession = errors.New("unknown session")

func newSessions(max int, evictIdle time.Duration) *sessions {
	return &sessions{byID: map[string]*sessionEntry{}, reserved: map[string]int{}, max: max, evictIdle: evictIdle, now: time.Now}
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
		e.closeStream()
	}
	delete(s.byID, id)
	return false, nil
}

// An initialize request's session id is made by mcp-go (Generate) and
// given to the request's principal as the answer carrying it is written
// (bind). An answer never written — the client hung up first — would leave
// the id in the table for good, unbound: counted against the cap but in no
// principal's share, and never used, so a client that sent initialize and
// hung up, over and over, filled the table for everyone, the owner's local
// clients too. So mcp-go finds the table through ResolveSessionIdManager,
// which for an initialize request (withMade) records the id it makes, and
// the front ends that session once the request is served if nobody was
// given it (front.dropUnbound).

// madeKey carries, in an initialize request's context, where the id of the
// session made for it is recorded.
type madeKey struct{}

// withMade returns ctx with a place for the id of the session made while
// serving it, and that place.
func withMade(ctx context.Context) (context.Context, *string) {
	made := new(string)
	return context.WithValue(ctx, madeKey{}, made), made
}

// ResolveSessionIdManager implements server.SessionIdManagerResolver: the
// table, recording the id it makes for a request of withMade. r is nil for
// mcp-go's idle sweep.
func (s *sessions) ResolveSessionIdManager(r *http.Request) server.SessionIdManager {
	if r != nil {
		if made, ok := r.Context().Value(madeKey{}).(*string); ok {
			return recorder{s, made}
		}
	}
	return s
}

// recorder is the table, recording the id it makes.
type recorder struct {
	*sessions
	made *string
}

func (r recorder) Generate() string {
	id := r.sessions.Generate()
	*r.made = id
	return id
}

// unbound reports whether id is a live session given to no principal.
func (s *sessions) unbound(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	return ok && e.owner == ""
}

// getStream is a session's GET stream, as attach knows it.
type getStream struct {
	cancel  func()        // ends the stream
	cut     func()        // ends the stream as replaced (attach)
	ended   chan struct{} // closed once its handler has returned
	started time.Time     // when it was attached
}

// attach ties a GET stream to its session: ending the session (DELETE,
// eviction, the idle sweep) ends the stream, which mcp-go would leave
// open. A session has one GET stream at a time, and the newest wins: the
// stream it has already is ended (end), and attach waits, up to
// replaceWait, for its handler to return, so that the two never take
// turns at the session's messages. A client opens a new GET stream when
// it believes its last one gone, and one dropped by a tunnel may still be
// open on juju's side, unknown to it: refusing the new one left the
// client no stream at all (docs/RATIONALE.md). The caller has checked
// that the request is the session's principal's (use). A stream younger
// than replaceAfter is not replaced: ok is false, and the new one is
// refused (409), so that a client holding two GET streams on one session
// (opening a second seconds after the first) does not have them replace
// each other in turn, each reconnect ending the other. The returned
// function detaches the stream once its handler returns; replaced
// reports whether a newer stream ended this one.
func (s *sessions) attach(id string, cancel, cut func()) (detach func(), replaced func() bool, ok bool) {
	s.mu.Lock()
	e, live := s.byID[id]
	if !live {
		s.mu.Unlock()
		cancel()
		return func() {}, func() bool { return false }, true
	}
	old := e.stream
	now := s.now()
	if old != nil && now.Sub(old.started) < replaceAfter {
		s.mu.Unlock()
		return nil, nil, false
	}
	var ousted atomic.Bool
	mine := &getStream{cancel: cancel, cut: func() { ousted.Store(true); cut() }, ended: make(chan struct{}), started: now}
	e.stream = mine
	s.mu.Unlock()
	if old != nil {
		old.cut()
		select {
		case <-old.ended:
		case <-time.After(replaceWait):
		}
	}
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if e.stream == mine {
			e.stream = nil
		}
		close(mine.ended)
	}, ousted.Load, true
}

// replaceAfter is the age a session's GET stream must reach before a new
// one may replace it. A tunnel that dropped a stream without a word
// leaves it open far longer than this before its client gives up on it,
// while a client opening two streams does so seconds apart.
const replaceAfter = 10 * time.Second

// replaceWait bounds how long a new GET stream waits for the one it
// replaces to end: a write of the old one blocked on a connection that
// reads nothing may hold it up to Limits.WriteTimeout.
const replaceWait = 2 * time.Second

func (e *sessionEntry) closeStream() {
	if e.stream != nil {
		e.stream.cancel()
		e.stream = nil
	}
}

// bind gives an unowned session to its principal, once, with the
// credential of an OAuth principal.
func (s *sessions) bind(id, owner string, cred credential) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.byID[id]; ok && e.owner == "" {
		e.owner, e.cred = owner, cred
	}
}

// use reports whether id is a live session of owner, and marks it used
// with the credential of this request.
func (s *sessions) use(id, owner string, cred credential) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.byID[id]
	if !ok || e.owner == "" || e.owner != owner {
		return false
	}
	e.last = s.now()
	e.cred = cred
	return true
}

// admit reserves room for a new session of principal. When the table, or
// the principal's part of it, is full it names a session to end first
// (the least recently used of those in the way, if idle long enough), or
// refuses. release must follow an admit that succeeded.
func (s *sessions) admit(principal string) (evict string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mine, oauth := s.reserved[principal], 0
	for p, n := range s.reserved {
		if p != localPrincipal {
			oauth += n
		}
	}
	for _, e := range s.byID {
		if e.owner == principal {
			mine++
		}
		if e.owner != localPrincipal && e.owner != "" {
			oauth++
		}
	}
	total := len(s.byID)
	for _, n := range s.reserved {
		total += n
	}
	var inTheWay func(*sessionEntry) bool
	switch {
	case principal != localPrincipal && mine >= min(principalSessions, s.max):
		inTheWay = func(e *sessionEntry) bool { return e.owner == principal }
	case principal != localPrincipal && oauth >= s.max-s.max/localRoom:
		inTheWay = func(e *sessionEntry) bool { return e.owner != localPrincipal }
	case total >= s.max:
		inTheWay = func(*sessionEntry) bool { return true }
	default:
		s.reserved[principal]++
		return "", true
	}
	var oldest string
	var when time.Time
	for id, e := range s.byID {
		if inTheWay(e) && (oldest == "" || e.last.Before(when)) {
			oldest, when = id, e.last
		}
	}
	if oldest == "" || s.now().Sub(when) < s.evictIdle {
		return "", false
	}
	s.byID[oldest].closeStream()
	delete(s.byID, oldest)
	s.reserved[principal]++
	return oldest, true
}

func (s *sessions) release(principal string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reserved[principal]--; s.reserved[principal] <= 0 {
		delete(s.reserved, principal)
	}
}

// unauthorized returns the OAuth principals' sessions whose credential
// check no longer accepts: its token expired, or its client or grant was
// revoked. It fails closed: an OAuth principal's session without a token
// is returned too, whatever lost it. check is called without the table's
// lock held.
func (s *sessions) unauthorized(check func(credential) bool) []string {
	s.mu.Lock()
	creds := map[string]credential{}
	for id, e := range s.byID {
		if e.owner != "" && e.owner != localPrincipal {
			creds[id] = e.cred
		}
	}
	s.mu.Unlock()
	var out []string
	for id, c := range creds {
		if c.token == "" || !check(c) {
			out = append(out, id)
		}
	}
	return out
}

// count is the number of live sessions.
func (s *sessions) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byID)
}
