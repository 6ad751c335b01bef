package oauth

import (
	"strings"
	"time"
)

// Verify returns the client an access token was issued to, when the token
// is live, was issued by this server for resource, and its grant is for
// the mode and roots served now. A revocation made by another process is
// seen here on the next call (the store re-reads a changed file).
func (s *Server) Verify(token, resource string) (string, bool) {
	client, ok := s.verify(token, resource)
	if ok {
		s.touch(client, s.now())
	}
	return client, ok
}

// Valid reports whether Verify would accept the token, without recording
// a use: juju serve asks it of the tokens behind open sessions, and ends
// those of a revoked or expired one.
func (s *Server) Valid(token, resource string) bool {
	_, ok := s.verify(token, resource)
	return ok
}

// Live reports whether client may still obtain access: it is registered
// and holds a grant for the mode and roots served now whose refresh token
// has not expired. A client revoked (juju clients revoke), or whose grants
// were dropped (a refresh token or code replayed), is not. A store that
// cannot be read answers true: what asks ends the client's work.
func (s *Server) Live(client string) bool {
	d, err := s.store.current()
	if err != nil {
		s.log.Error("reading the OAuth store", "err", err)
		return true
	}
	if d.client(client) == nil {
		return false
	}
	now := s.now()
	for _, g := range d.Grants {
		if g.Client == client && s.bound(g) && g.Refresh.Expires.After(now) {
			return true
		}
	}
	return false
}

func (s *Server) verify(token, resource string) (string, bool) {
	if !strings.HasPrefix(token, accessPrefix) {
		return "", false // not one of ours: a JWT, a refresh token, garbage
	}
	d, err := s.store.current()
	if err != nil {
		s.log.Error("reading the OAuth store", "err", err)
		return "", false
	}
	h, now := hash(token), s.now()
	for _, g := range d.Grants {
		for _, a := range g.Access {
			if a.Hash != h {
				continue
			}
			if !a.Expires.After(now) || g.Resource != resource || !s.bound(g) || d.client(g.Client) == nil {
				return "", false
			}
			return g.Client, true
		}
	}
	return "", false
}

// touchEvery is how often a client's last use is written.
const touchEvery = time.Minute

// touch records a client's use, at most every touchEvery, in the
// background.
func (s *Server) touch(id string, now time.Time) {
	s.touchMu.Lock()
	last := s.touched[id]
	if now.Sub(last) < touchEvery {
		s.touchMu.Unlock()
		return
	}
	s.touched[id] = now
	s.touchMu.Unlock()
	s.writes.Add(1)
	go func() {
		defer s.writes.Done()
		err := s.store.update(func(d *db) error {
			if c := d.client(id); c != nil {
				c.LastUsed = now.UTC()
				return nil
			}
			return errNoChange
		})
		if err != nil && err != errNoChange {
			s.log.Warn("recording an OAuth client's last use", "err", err)
		}
	}()
}
