package oauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/filelock"

	"github.com/jujutools/juju/internal/atomicfile"
)

// Store is the OAuth state on disk: the registered clients and what they
// were granted, every token kept as its hash. One JSON file in the given
// folder holds it all; updates take a file lock, read the file afresh,
// change it and replace it atomically, so the server and `juju clients`
// never lose each other's changes. Readers keep a copy and re-read it when
// the file changed, which is how a revocation reaches a running server.
type Store struct {
	dir, path, lock string
	now             func() time.Time

	mu    sync.Mutex
	cache *db
	seen  os.FileInfo // the file the cache was read from; nil when none
}

// Store files.
const (
	storeFile = "oauth.json"
	lockName  = "oauth.lock"
)

// OpenStore opens the store in dir; nothing is created until the first
// change.
func OpenStore(dir string) *Store {
	return &Store{dir: dir, path: filepath.Join(dir, storeFile), lock: filepath.Join(dir, lockName), now: time.Now}
}

// db is the file's content.
type db struct {
	Version int       `json:"version"`
	Clients []*client `json:"clients"`
	Grants  []*grant  `json:"grants"`
}

// client is a registered client (RFC 7591).
type client struct {
	ID           string    `json:"id"`
	Name         string    `json:"name"`
	RedirectURIs []string  `json:"redirectUris"`
	Created      time.Time `json:"created"`
	LastUsed     time.Time `json:"lastUsed,omitzero"`
}

// grant is what the owner allowed one client: a live refresh token, the
// access tokens issued under it, and the refresh tokens it replaced (a
// replayed one revokes the grant). It is bound to the resource, trust mode
// and roots the owner saw on the consent page.
type grant struct {
	ID       string    `json:"id"`
	Client   string    `json:"client"`
	Resource string    `json:"resource"`
	Mode     string    `json:"mode"`
	Roots    []string  `json:"roots"`
	Created  time.Time `json:"created"`
	Refresh  hashed    `json:"refresh"`
	Retired  []string  `json:"retired,omitempty"`
	Access   []hashed  `json:"access,omitempty"`
}

// hashed is a token as stored: its hash and when it expires.
type hashed struct {
	Hash    string    `json:"hash"`
	Expires time.Time `json:"expires"`
}

const storeVersion = 1

// ErrUnknownClient reports a client id the store does not have.
var ErrUnknownClient = errors.New("no such OAuth client")

// current returns the state, re-read when the file changed since the last
// read. The returned value must not be changed.
func (s *Store) current() (*db, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := os.Stat(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		s.cache, s.seen = &db{Version: storeVersion}, nil
		return s.cache, nil
	}
	if err != nil {
		return nil, err
	}
	if s.cache != nil && s.seen != nil && os.SameFile(st, s.seen) && st.ModTime().Equal(s.seen.ModTime()) && st.Size() == s.seen.Size() {
		return s.cache, nil
	}
	d, st, err := s.read()
	if err != nil {
		return nil, err
	}
	s.cache, s.seen = d, st
	return d, nil
}

// read reads and decodes the file.
func (s *Store) read() (*db, os.FileInfo, error) {
	f, err := os.Open(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return &db{Version: storeVersion}, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	// Whoever may write the store may add a grant for a token they chose:
	// one another user owns or may write is refused, as the token file is.
	if err := config.CheckFileOwner(s.path, st); err != nil {
		return nil, nil, err
	}
	d := &db{}
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	if err := dec.Decode(d); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", s.path, err)
	}
	if d.Version != storeVersion {
		return nil, nil, fmt.Errorf("%s: version %d, this juju reads version %d", s.path, d.Version, storeVersion)
	}
	return d, st, nil
}

// update changes the state under the file lock: fn gets the file's current
// content; when it returns nil, expired entries are dropped and the file is
// replaced.
func (s *Store) update(fn func(*db) error) error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	unlock, err := filelock.Lock(s.lock)
	if err != nil {
		return err
	}
	defer unlock()
	d, _, err := s.read()
	if err != nil {
		return err
	}
	if err := fn(d); err != nil {
		return err
	}
	d.prune(s.now())
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(s.path, append(data, '\n'), 0o600, atomicfile.Options{Sync: true}); err != nil {
		return err
	}
	s.mu.Lock()
	s.cache, s.seen = nil, nil // the next current() reads what was written
	s.mu.Unlock()
	return nil
}

// unclaimedTTL is how long a registered client that was never granted
// anything is kept.
const unclaimedTTL = 24 * time.Hour

// prune drops expired access tokens, grants whose refresh token expired,
// and clients that hold no grant, were never used and are older than
// unclaimedTTL.
func (d *db) prune(now time.Time) {
	d.Grants = slices.DeleteFunc(d.Grants, func(g *grant) bool { return !g.Refresh.Expires.After(now) })
	for _, g := range d.Grants {
		g.Access = slices.DeleteFunc(g.Access, func(h hashed) bool { return !h.Expires.After(now) })
	}
	d.Clients = slices.DeleteFunc(d.Clients, func(c *client) bool {
		return d.grantsOf(c.ID) == 0 && c.LastUsed.IsZero() && now.Sub(c.Created) > unclaimedTTL
	})
}

func (d *db) client(id string) *client {
	for _, c := range d.Clients {
		if c.ID == id {
			return c
		}
	}
	return nil
}

func (d *db) grant(id string) *grant {
	for _, g := range d.Grants {
		if g.ID == id {
			return g
		}
	}
	return nil
}

func (d *db) grantsOf(clientID string) int {
	n := 0
	for _, g := range d.Grants {
		if g.Client == clientID {
			n++
		}
	}
	return n
}

// evictUnclaimed removes the oldest client that was never granted anything
// or used, registered before cutoff, and reports whether it found one.
func (d *db) evictUnclaimed(cutoff time.Time) bool {
	var oldest *client
	for _, c := range d.Clients {
		if d.grantsOf(c.ID) == 0 && c.LastUsed.IsZero() && c.Created.Before(cutoff) && (oldest == nil || c.Created.Before(oldest.Created)) {
			oldest = c
		}
	}
	if oldest == nil {
		return false
	}
	d.Clients = slices.DeleteFunc(d.Clients, func(c *client) bool { return c == oldest })
	return true
}

// dropGrant removes a grant and everything issued under it.
func (d *db) dropGrant(id string) {
	d.Grants = slices.DeleteFunc(d.Grants, func(g *grant) bool { return g.ID == id })
}

// ClientInfo is a registered client as `juju clients list` shows it.
type ClientInfo struct {
	ID           string    `json:"id"`
	Name         string    `json:"name"`
	RedirectURIs []string  `json:"redirectUris"`
	Created      time.Time `json:"created"`
	LastUsed     time.Time `json:"lastUsed,omitzero"`
	// Grants is the number of live grants (0: registered, never allowed or
	// no longer).
	Grants int `json:"grants"`
}

// Clients lists the registered clients, oldest first.
func (s *Store) Clients() ([]ClientInfo, error) {
	d, err := s.current()
	if err != nil {
		return nil, err
	}
	out := make([]ClientInfo, 0, len(d.Clients))
	for _, c := range d.Clients {
		out = append(out, ClientInfo{ID: c.ID, Name: c.Name, RedirectURIs: slices.Clone(c.RedirectURIs),
			Created: c.Created, LastUsed: c.LastUsed, Grants: d.grantsOf(c.ID)})
	}
	slices.SortStableFunc(out, func(a, b ClientInfo) int { return a.Created.Compare(b.Created) })
	return out, nil
}

// Revoke removes a client and everything it was granted: its tokens are
// refused from the next request on, and it must register and ask the owner
// again.
func (s *Store) Revoke(id string) error {
	return s.update(func(d *db) error {
		if d.client(id) == nil {
			return fmt.Errorf("%w: %s", ErrUnknownClient, id)
		}
		d.Clients = slices.DeleteFunc(d.Clients, func(c *client) bool { return c.ID == id })
		d.Grants = slices.DeleteFunc(d.Grants, func(g *grant) bool { return g.Client == id })
		return nil
	})
}
