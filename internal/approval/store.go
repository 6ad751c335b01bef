package approval

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"
)

// Defaults of Options.
const (
	// DefaultTTL is how long a pending approval, or an approval not yet
	// used, stays valid: the owner has this long to decide, and the client
	// this long to retry an approved call.
	DefaultTTL = time.Hour
	// DefaultKeep is how long records are kept, for `juju approvals`,
	// before they are removed.
	DefaultKeep = 24 * time.Hour
	// DefaultPoll is how often a waiting call looks for the owner's decision.
	DefaultPoll = 100 * time.Millisecond
)

// Errors of the store.
var (
	ErrNotFound = errors.New("no such approval")
	ErrDecided  = errors.New("the approval was already decided")
	ErrExpired  = errors.New("the approval has expired")
	ErrUsed     = errors.New("the approval was already used")
	// ErrTooLarge: a call's arguments past MaxArgs.
	ErrTooLarge = errors.New("the arguments are too large to be approved")
	// ErrFull: MaxRecords approvals, or MaxStored bytes of arguments, are
	// kept already, none of them settled.
	ErrFull = errors.New("too many approvals are kept")
	// ErrShareFull: the calling client's MaxPerClient approvals, or
	// MaxStoredPerClient bytes of its arguments, wait for the owner already.
	ErrShareFull = errors.New("too many of this client's approvals wait for the owner")
)

// Bounds of what the store keeps: a model may make calls that need the
// owner's approval as fast as it likes, and each keeps its arguments for a
// day.
const (
	MaxArgs    = 4 << 20  // one call's arguments
	MaxRecords = 256      // approvals kept
	MaxStored  = 64 << 20 // their arguments together
)

// One client's share of the approvals that wait for the owner (pending,
// within their TTL): a client that makes calls needing approval
// in a loop fills its own share, not the store, and the owner's other
// clients can still be asked. An eighth of the store each: a session asks
// for one call at a time, a few with parallel calls, and 32 is well past
// that; eight such clients would still fill the store, and the owner then
// clears it (juju approvals deny --all or --client). A client is its
// principal (an OAuth client, whatever names it declares), or a local
// client's declared name (Request.sharer); and one connection
// (Request.Conn) has the same share, since a client of protocol
// 2026-07-28 declares its name with each call and could take a share
// per name.
const (
	MaxPerClient       = MaxRecords / 8
	MaxStoredPerClient = MaxStored / 8
)

// Options tune a Store; zero values take the defaults.
type Options struct {
	TTL  time.Duration
	Keep time.Duration
	Poll time.Duration
	Now  func() time.Time // tests
	// Roots are the workspace's roots, absolute and with symlinks
	// resolved: the epoch then takes in the epochs of the workspaces
	// whose roots overlap them (epoch.go). None: the store's own only.
	Roots []string
}

// Store is the approvals folder of one workspace. It holds no file open and
// no lock; any number of processes may use the same folder.
type Store struct {
	dir        string
	opts       Options
	bumpFailed atomic.Bool // a Bump failed: Epoch matches nothing (epoch.go)
	rootsKept  atomic.Bool // the roots file is written (epoch.go)
}

// Dir is the approvals folder inside a workspace's state folder.
func Dir(stateDir string) string { return filepath.Join(stateDir, "approvals") }

// Open returns the store in dir (see Dir). The folder is created on the
// first write.
func Open(dir string, opts Options) *Store {
	if opts.TTL <= 0 {
		opts.TTL = DefaultTTL
	}
	if opts.Keep <= 0 {
		opts.Keep = DefaultKeep
	}
	if opts.Keep < opts.TTL {
		opts.Keep = opts.TTL
	}
	if opts.Poll <= 0 {
		opts.Poll = DefaultPoll
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Store{dir: dir, opts: opts}
}

// The files of one approval.
const (
	argsFile     = "args.json"
	requestFile  = "request.json"
	decisionFile = "decision.json"
	usedFile     = "used.json"
)

// NewID returns a fresh approval id: eight letters and digits, easy to type.
func NewID() string {
	var b [5]byte
	rand.Read(b[:])
	return strings.ToLower(base32.StdEncoding.EncodeToString(b[:]))
}

// Create records a pending approval of a call with the given JSON
// arguments; it fills in ID and Created when they are empty. Records past
// Keep are swept away on the way.
func (s *Store) Create(r Request, args []byte) (Request, error) {
	if r.ID == "" {
		r.ID = NewID()
	}
	if !validID(r.ID) {
		return r, fmt.Errorf("approval id %q: %w", r.ID, ErrNotFound)
	}
	if r.Created.IsZero() {
		r.Created = s.opts.Now().UTC()
	}
	s.sweep()
	if len(args) > MaxArgs {
		return r, fmt.Errorf("%w: %d bytes, past %d", ErrTooLarge, len(args), MaxArgs)
	}
	if err := s.makeRoom(r, int64(len(args))); err != nil {
		return r, err
	}
	dir := filepath.Join(s.dir, r.ID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return r, err
	}
	s.recordRoots()
	// The arguments first: a request that can be seen has them.
	if err := writeOnceBytes(filepath.Join(dir, argsFile), args); err != nil {
		return r, err
	}
	return r, writeOnce(filepath.Join(dir, requestFile), r)
}

// Args returns the whole JSON arguments of an approval's call. An
// approval recorded by an earlier juju has none: ErrNotFound then, and
// only Request.Args, in short, is known.
func (s *Store) Args(id string) ([]byte, error) {
	if !validID(id) {
		return nil, fmt.Errorf("%q: %w", id, ErrNotFound)
	}
	b, err := os.ReadFile(filepath.Join(s.dir, id, argsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("the arguments of %s: %w", id, ErrNotFound)
	}
	return b, err
}

// Get returns one approval.
func (s *Store) Get(id string) (Record, error) {
	if !validID(id) {
		return Record{}, fmt.Errorf("%q: %w", id, ErrNotFound)
	}
	dir := filepath.Join(s.dir, id)
	var rec Record
	if err := readJSON(filepath.Join(dir, requestFile), &rec.Request); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Record{}, fmt.Errorf("%q: %w", id, ErrNotFound)
		}
		return Record{}, err
	}
	rec.State = Pending
	var d Decision
	if err := readJSON(filepath.Join(dir, decisionFile), &d); err == nil {
		rec.Decided, rec.By = d.Time, d.By
		rec.State = Denied
		if d.Approve {
			rec.State = Approved
		}
	}
	var u used
	if err := readJSON(filepath.Join(dir, usedFile), &u); err == nil {
		rec.State, rec.UsedTime, rec.Stale = Used, u.Time, u.Stale
	}
	if (rec.State == Pending || rec.State == Approved) && s.opts.Now().Sub(rec.Created) > s.opts.TTL {
		rec.State = Expired
	}
	return rec, nil
}

// List returns every approval kept, newest first.
func (s *Store) List() ([]Record, error) {
	ents, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Record
	for _, e := range ents {
		if !e.IsDir() || !validID(e.Name()) {
			continue
		}
		r, err := s.Get(e.Name())
		if err != nil {
			continue // half-created or swept meanwhile
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.After(out[j].Created) })
	return out, nil
}

// Decide records the owner's answer to a pending approval. The first
// decision wins: a second one is ErrDecided.
func (s *Store) Decide(id string, approve bool, by string) (Record, error) {
	r, err := s.Get(id)
	if err != nil {
		return r, err
	}
	switch r.State {
	case Expired:
		return r, fmt.Errorf("%s: %w", id, ErrExpired)
	case Approved, Denied, Used:
		return r, fmt.Errorf("%s (%s): %w", id, r.State, ErrDecided)
	}
	d := Decision{Approve: approve, Time: s.opts.Now().UTC(), By: by}
	if err := writeOnce(filepath.Join(s.dir, id, decisionFile), d); err != nil {
		if errors.Is(err, fs.ErrExist) {
			r, _ = s.Get(id)
			return r, fmt.Errorf("%s (%s): %w", id, r.State, ErrDecided)
		}
		return r, err
	}
	return s.Get(id)
}

// used is what used.json holds.
type used struct {
	Time  time.Time `json:"time"`
	Stale bool      `json:"stale,omitempty"`
}

// Use marks a decided approval as acted on. Only one caller succeeds; the
// others get ErrUsed. It is how an approval runs its call at most once.
func (s *Store) Use(id string) error { return s.use(id, false) }

// Stale marks an approval as acted on without running its call: the
// workspace changed since the owner was asked (Request.Epoch). As with
// Use, only one caller succeeds; the others get ErrUsed.
func (s *Store) Stale(id string) error { return s.use(id, true) }

func (s *Store) use(id string, stale bool) error {
	if !validID(id) {
		return fmt.Errorf("%q: %w", id, ErrNotFound)
	}
	err := writeOnce(filepath.Join(s.dir, id, usedFile), used{Time: s.opts.Now().UTC(), Stale: stale})
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s: %w", id, ErrUsed)
	}
	return err
}

// Match finds the newest approval of the same call (principal, client,
// tool and arguments) that is still pending, or decided and not used yet,
// and that the owner was told does what the call will do here (what,
// Request.What): another juju on the workspace, started with another
// sandbox setting, runs the same arguments otherwise than the owner read.
func (s *Store) Match(principal, client, tool, argsHash, what string) (Record, bool) {
	recs, err := s.List()
	if err != nil {
		return Record{}, false
	}
	for _, r := range recs {
		if !r.Of(principal, client) || r.Tool != tool || r.ArgsHash != argsHash || r.What != what {
			continue
		}
		switch r.State {
		case Pending, Approved, Denied:
			return r, true
		}
	}
	return Record{}, false
}

// Wait polls the approval until it is decided, expires, or ctx ends
// (ctx.Err() then).
func (s *Store) Wait(ctx context.Context, id string) (Record, error) {
	t := time.NewTicker(s.opts.Poll)
	defer t.Stop()
	for {
		r, err := s.Get(id)
		if err != nil {
			return r, err
		}
		if r.State != Pending {
			return r, nil
		}
		select {
		case <-ctx.Done():
			return r, ctx.Err()
		case <-t.C:
		}
	}
}

// makeRoom checks that r's client, and its connection, have room in
// their share (their approvals the owner has not decided yet), then removes
// settled approvals (decided and used, or past their TTL), the oldest
// first, until one more record of n bytes of arguments fits the bounds;
// ErrShareFull or ErrFull when it would not.
func (s *Store) makeRoom(r Request, n int64) error {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return nil // no folder yet: nothing kept
	}
	type kept struct {
		id      string
		created time.Time
		size    int64
		settled bool
	}
	var all []kept
	var total, mine, mineBytes, conn, connBytes int64
	now := s.opts.Now()
	for _, e := range ents {
		if !e.IsDir() || !validID(e.Name()) {
			continue
		}
		k := kept{id: e.Name()}
		if fi, err := os.Stat(filepath.Join(s.dir, k.id, argsFile)); err == nil {
			k.size = fi.Size()
		}
		var kr Request
		if readJSON(filepath.Join(s.dir, k.id, requestFile), &kr) == nil {
			k.created = kr.Created
		}
		_, usedErr := os.Stat(filepath.Join(s.dir, k.id, usedFile))
		k.settled = usedErr == nil || !k.created.IsZero() && now.Sub(k.created) > s.opts.TTL
		sharer, sameConn := kr.sharer() == r.sharer(), r.Conn != "" && kr.Conn == r.Conn
		if !k.settled && (sharer || sameConn) && !exists(filepath.Join(s.dir, k.id, decisionFile)) {
			if sharer {
				mine++
				mineBytes += k.size
			}
			if sameConn {
				conn++
				connBytes += k.size
			}
		}
		total += k.size
		all = append(all, k)
	}
	if mine >= MaxPerClient || mineBytes+n > MaxStoredPerClient {
		return fmt.Errorf("%w: %d approvals with %d bytes of arguments", ErrShareFull, mine, mineBytes)
	}
	if conn >= MaxPerClient || connBytes+n > MaxStoredPerClient {
		return fmt.Errorf("%w: %d approvals of its connection with %d bytes of arguments", ErrShareFull, conn, connBytes)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].created.Before(all[j].created) })
	count := len(all)
	fits := func() bool { return count < MaxRecords && total+n <= MaxStored }
	for _, k := range all {
		if fits() {
			return nil
		}
		if k.settled && os.RemoveAll(filepath.Join(s.dir, k.id)) == nil {
			count--
			total -= k.size
		}
	}
	if fits() {
		return nil
	}
	return fmt.Errorf("%w: %d approvals with %d bytes of arguments wait for the owner", ErrFull, count, total)
}

// sweep removes the approvals created longer than Keep ago.
func (s *Store) sweep() {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	cutoff := s.opts.Now().Add(-s.opts.Keep)
	for _, e := range ents {
		if !e.IsDir() || !validID(e.Name()) {
			continue
		}
		var r Request
		if err := readJSON(filepath.Join(s.dir, e.Name(), requestFile), &r); err != nil {
			if info, err := e.Info(); err != nil || info.ModTime().After(cutoff) {
				continue // being created right now
			}
		} else if r.Created.After(cutoff) {
			continue
		}
		os.RemoveAll(filepath.Join(s.dir, e.Name()))
	}
}

// validID accepts the ids NewID makes (and nothing that could be a path).
func validID(id string) bool {
	if len(id) == 0 || len(id) > 32 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// writeOnce writes v as JSON to path, atomically and only if path does not
// exist yet (fs.ErrExist then).
func writeOnce(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return writeOnceBytes(path, b)
}

// writeOnceBytes writes b to path, atomically and only if path does not
// exist yet (fs.ErrExist then): the content goes to a temporary file that
// is then hard-linked to path.
func writeOnceBytes(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fs.ErrExist
		}
		return err
	}
	return nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
