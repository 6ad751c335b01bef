package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// FileName is the journal's database file in the workspace's state folder.
const FileName = "journal.db"

// Defaults of the options.
const (
	DefaultLockTimeout = 5 * time.Second
	DefaultMaxFileSize = 32 << 20 // bytes of one file a change may read or write
	DefaultMaxDiff     = 64 << 10 // bytes of unified diff kept per change
	DefaultPlanTTL     = time.Hour
)

// Buckets of the database.
var (
	bucketChanges = []byte("changes") // id → record (JSON)
	bucketPending = []byte("pending") // id → empty: records not yet done
	bucketBlobs   = []byte("blobs")   // sha256 (hex) → content
	bucketPlans   = []byte("plans")   // plan id → plan (JSON)
	bucketMeta    = []byte("meta")    // keyPruned → the newest change pruned
)

// buckets lists every bucket; prepare makes those an older database lacks.
var buckets = [][]byte{bucketChanges, bucketPending, bucketBlobs, bucketPlans, bucketMeta}

// Journal is the journal of one workspace. It is safe for concurrent use,
// and several processes may use the same database: each operation opens
// it, holds its file lock for the operation only, and closes it.
type Journal struct {
	path   string
	pol    *policy.Policy
	opts   options
	log    *slog.Logger
	mu     sync.Mutex // serialises this process's writers (the file lock serialises processes)
	auto   autoPrune  // the background prune after commits (prune.go)
	settle settle     // the start's Recover, which reads wait for (Settled)
	peers  peers      // other processes' changes, settled when one died halfway (Settled)
	later  struct {   // the last change's work after its answer (withLater)
		sync.Mutex
		done chan struct{} // closed when it ends
	}
}

type options struct {
	lockTimeout time.Duration
	maxFileSize int64
	maxDiff     int
	planTTL     time.Duration
	logger      *slog.Logger
	now         func() time.Time
	fault       func(point string) // tests: called at each step of an apply
	reads       *ReadLog
	observer    func([]Touched) // told of every committed change (WithObserver)
	limits      Limits
	autoPrune   bool
	compactMin  int64 // free bytes past which a prune compacts the file
	serial      bool  // tests: write named temporary files after the intent, as before the overlap
	finishFault error // tests: what marking a written change done fails with
	noFileCheck bool  // tests: open without checkFile, to try guard alone
}

// Option changes a default of Open.
type Option func(*options)

// WithLogger sends the journal's unexpected failures to l.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithLockTimeout bounds how long an operation waits for another process
// holding the database (DefaultLockTimeout).
func WithLockTimeout(d time.Duration) Option { return func(o *options) { o.lockTimeout = d } }

// WithMaxFileSize bounds the size of a file a change reads or writes.
func WithMaxFileSize(n int64) Option { return func(o *options) { o.maxFileSize = n } }

// WithReadLog makes edits and writes without an expected sha256 refuse a
// file read earlier (as l recorded) and changed on disk since.
func WithReadLog(l *ReadLog) Option { return func(o *options) { o.reads = l } }

// WithFault installs a hook called at each step of an apply, with the
// step's name ("intent", "write:N", "rename:N", "commit"). Tests use it to
// stop a writer at a chosen point; nothing else should.
func WithFault(f func(point string)) Option { return func(o *options) { o.fault = f } }

// WithLimits sets what the journal keeps (DefaultLimits): Prune removes
// the changes past them.
func WithLimits(l Limits) Option { return func(o *options) { o.limits = l } }

// WithAutoPrune makes the journal prune itself in the background after a
// change, when its database holds more than the size limit (at most once a
// minute). A long-running server asks for it; the CLI does not.
func WithAutoPrune() Option { return func(o *options) { o.autoPrune = true } }

// Open returns the journal kept in stateDir for the workspace of pol. It
// touches nothing: the folder (mode 0700) and the database are made by the
// first operation, and every operation that writes first settles a change
// a crashed writer left pending (Recover does only that).
func Open(stateDir string, pol *policy.Policy, opts ...Option) (*Journal, error) {
	o := options{
		lockTimeout: DefaultLockTimeout,
		maxFileSize: DefaultMaxFileSize,
		maxDiff:     DefaultMaxDiff,
		planTTL:     DefaultPlanTTL,
		now:         time.Now,
		limits:      DefaultLimits,
		compactMin:  defaultCompactMin,
	}
	for _, f := range opts {
		f(&o)
	}
	if o.logger == nil {
		o.logger = slog.New(slog.DiscardHandler)
	}
	if stateDir == "" {
		return nil, errors.New("journal: no state folder")
	}
	return &Journal{path: filepath.Join(stateDir, FileName), pol: pol, opts: o, log: o.logger, settle: settle{done: make(chan struct{})}}, nil
}

// Recover settles a change a crashed writer left pending: kept when it
// wrote every path, undone otherwise. Start calls it. With nothing pending
// it writes nothing: an empty transaction would still be committed, its
// meta page written and the file synced twice, at every start of juju in a
// workspace that has a journal.
func (j *Journal) Recover() error {
	return j.withDB(func(*bolt.DB) error { return nil })
}

// Path is the database file.
func (j *Journal) Path() string { return j.path }

// errBusy reports a database another process held past the lock timeout.
var errBusy = abi.Errorf(abi.Timeout, "the change journal is busy (another juju process is writing to this workspace); try again in a moment")

// openDB opens the database, exclusive when write, shared otherwise.
//
// A prune may compact the database into a new file renamed over the old
// one while another process waits for the old one's lock; that process
// then holds a file nobody else will see again. So once the lock is held,
// the opened file must still be the one at the path, or it is opened again.
//
// The file is checked before bbolt maps it (checkFile) and never created
// by bbolt: a missing journal is made whole under another name and linked
// into place (create), so an empty journal.db is one juju found, not one
// it is making. A folder, FIFO or device at the path is refused without
// opening it, and opened without blocking all the same (a swap between
// the look and the open).
func (j *Journal) openDB(write bool) (*bolt.DB, error) {
	for attempt := 0; ; attempt++ {
		fi, err := os.Lstat(j.path)
		if errors.Is(err, fs.ErrNotExist) && attempt < 5 {
			if err := j.create(nil); err != nil {
				return nil, err
			}
			continue
		}
		if err == nil && !fi.Mode().IsRegular() {
			d := damaged(j.path, "it is not a regular file but a %s", kindOf(fi.Mode()))
			d.fi = fi
			return nil, d
		}
		var f *os.File
		openFile := func(name string, flag int, perm os.FileMode) (*os.File, error) {
			file, err := os.OpenFile(name, flag&^os.O_CREATE|syscallNonblock, perm)
			if err != nil {
				return nil, err
			}
			if reason := checkFile(file, j.opts.noFileCheck); reason != "" {
				d := damaged(j.path, "%s", reason)
				d.fi, _ = file.Stat()
				file.Close()
				return nil, d
			}
			f = file
			return file, nil
		}
		db, err := openBolt(j.path, &bolt.Options{Timeout: j.opts.lockTimeout, ReadOnly: !write, OpenFile: openFile}, &f)
		if errors.Is(err, fs.ErrNotExist) && attempt < 5 {
			continue // set aside or compacted since the look
		}
		if errors.Is(err, bolt.ErrTimeout) {
			return nil, errBusy
		}
		if errors.Is(err, bolt.ErrInvalid) || errors.Is(err, bolt.ErrChecksum) || errors.Is(err, bolt.ErrVersionMismatch) {
			d := damaged(j.path, "bbolt refuses it (%v)", err)
			d.fi, _ = os.Lstat(j.path)
			return nil, d
		}
		if err != nil {
			return nil, fmt.Errorf("journal: open %s: %w", j.path, err)
		}
		if attempt < 5 && replaced(f, j.path) {
			db.Close()
			continue
		}
		return db, nil
	}
}

// openBolt is bolt.Open. A panic in it (bbolt reads the free-page list as
// it opens, which checkFile checked) closes the file it opened, *f, and
// goes on as an openPanic: the file is damaged. Its lock stays while the
// map bbolt made of it lives, which bbolt keeps to itself; the file is set
// aside, so the lock no longer matters.
func openBolt(path string, o *bolt.Options, f **os.File) (*bolt.DB, error) {
	defer func() {
		if r := recover(); r != nil {
			if *f != nil {
				(*f).Close()
			}
			panic(openPanic{r})
		}
	}()
	return bolt.Open(path, 0o600, o)
}

// create makes a new database, with its buckets and, when note is not
// nil, a note of the damaged one it replaces, under a temporary name, and
// links it into place unless a database is there already.
func (j *Journal) create(note *setAsideNote) error {
	dir := filepath.Dir(j.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	tmp, err := os.CreateTemp(dir, FileName+".new-*")
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	db, err := bolt.Open(tmp.Name(), 0o600, &bolt.Options{Timeout: j.opts.lockTimeout})
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range buckets {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		if note == nil {
			return nil
		}
		v, err := json.Marshal(note)
		if err != nil {
			return err
		}
		return tx.Bucket(bucketMeta).Put(keySetAside, v)
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := os.Link(tmp.Name(), j.path); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("journal: %w", err)
	}
	return syncFolder(dir)
}

// replaced reports whether the file at path is no longer f (a compaction
// renamed a new file over it while f waited for its lock).
func replaced(f *os.File, path string) bool {
	if f == nil {
		return false
	}
	held, err := f.Stat()
	if err != nil {
		return false
	}
	now, err := os.Stat(path)
	return err != nil || !os.SameFile(held, now)
}

// withDB runs fn with the database opened for writing: buckets exist and
// pending records are settled. The process lock and the file lock are held
// throughout. A damaged database is set aside (guarded) and reported.
func (j *Journal) withDB(fn func(db *bolt.DB) error) error {
	return j.withLater(func(db *bolt.DB, _ *func()) error { return fn(db) })
}

// withLater is withDB for a change, whose fn may set *later to what is
// left to do once its caller may answer (commit's later). That runs on a
// goroutine of its own, still holding both locks, and the database is
// closed after it: this process's next write waits for it at the process
// lock, its reads and Wait at awaitLater, another process's at the file
// lock.
func (j *Journal) withLater(fn func(db *bolt.DB, later *func()) error) error {
	j.mu.Lock()
	var later func()
	var db *bolt.DB
	err := j.guarded(true, func(early *bool) error {
		var err error
		if db, err = j.openDB(true); err != nil {
			return err
		}
		defer func() {
			if later == nil {
				db.Close()
			}
		}()
		if err := j.prepare(db); err != nil {
			return err
		}
		*early = false
		var l func()
		if err := fn(db, &l); err != nil {
			return err
		}
		if later = l; later == nil {
			j.noteDB(db)
		}
		return nil
	})
	if later == nil || err != nil {
		j.mu.Unlock()
		return err
	}
	done := make(chan struct{})
	j.later.Lock()
	j.later.done = done
	j.later.Unlock()
	go func() {
		defer close(done)
		defer j.mu.Unlock()
		err := j.guarded(true, func(early *bool) error {
			*early = false
			defer db.Close()
			later()
			j.noteDB(db)
			return nil
		})
		if err != nil {
			j.log.Error("journal: finishing a change after its answer; the next write settles it", "err", err)
		}
	}()
	return nil
}

// noteDB notes db, open for writing, as settled: whatever was pending is.
func (j *Journal) noteDB(db *bolt.DB) {
	var txid uint64
	db.View(func(tx *bolt.Tx) error { txid = uint64(tx.ID()); return nil })
	fi, _ := os.Stat(j.path)
	j.noteSettled(fi, txid)
}

// awaitLater waits for the last change's later work (withLater) to end.
func (j *Journal) awaitLater() {
	j.later.Lock()
	done := j.later.done
	j.later.Unlock()
	if done != nil {
		<-done
	}
}

// update is withDB for one read-write transaction.
func (j *Journal) update(fn func(tx *bolt.Tx) error) error {
	return j.withDB(func(db *bolt.DB) error { return db.Update(fn) })
}

// view runs fn in a read-only transaction under a shared lock. Pending
// records are skipped by the readers. A damaged database is reported and
// left as it is.
func (j *Journal) view(fn func(tx *bolt.Tx) error) error {
	j.awaitLater()
	return j.guarded(false, func(*bool) error {
		db, err := j.openDB(false)
		if err != nil {
			return err
		}
		defer db.Close()
		return db.View(func(tx *bolt.Tx) error {
			if tx.Bucket(bucketChanges) == nil {
				return nil
			}
			return fn(tx)
		})
	})
}

// prepare makes the buckets and settles pending records.
func (j *Journal) prepare(db *bolt.DB) error {
	var pending []string
	ready := false
	db.View(func(tx *bolt.Tx) error {
		for _, b := range buckets {
			if tx.Bucket(b) == nil {
				return nil
			}
		}
		k, _ := tx.Bucket(bucketPending).Cursor().First()
		ready = k == nil
		return nil
	})
	if ready {
		return nil
	}
	err := db.Update(func(tx *bolt.Tx) error {
		for _, b := range buckets {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketPending).ForEach(func(k, _ []byte) error {
			pending = append(pending, string(k))
			return nil
		})
	})
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	for _, id := range pending {
		if err := j.recover(db, id); err != nil {
			return err
		}
	}
	return nil
}

// Author is who made a change, as the journal records it: the MCP client
// (its name, and over HTTP with OAuth its principal), the plugin and tool,
// and the call's audit id. The owner's own CLI is Author{Client: "juju"}.
type Author struct {
	Client    string `json:"client,omitempty"`
	Principal string `json:"principal,omitempty"` // hostfns.Caller.Principal: "" for the owner's local clients
	// Session is the MCP session of the call (hostfns.Caller.Session),
	// whose view of the files its changes are checked against (ReadLog).
	// It lasts no longer than the connection, so no record keeps it.
	Session string `json:"-"`
	Plugin  string `json:"plugin,omitempty"`
	Tool    string `json:"tool,omitempty"`
	CallID  string `json:"callId,omitempty"`
}

// Owner is the author of the changes the owner makes with juju's CLI.
var Owner = Author{Client: "juju"}
