package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/jujutools/juju/sdk/abi"
)

// A damaged database (cut short, overwritten in part, replaced by a folder
// or a FIFO) must not take juju down: bbolt trusts its file, panics on a
// page it cannot read and faults on a page past the end of a file cut
// short. So the journal
//
//   - checks the file against its header before bbolt maps it (checkFile):
//     a regular file, not empty, a valid header page, as long as the pages
//     the header says it holds, its root and free-list pages where the
//     header puts them;
//   - runs every database access under guard, which turns a panic or a
//     memory fault into an error, and then reads the whole database again
//     (verify) to tell a damaged file from a fault of juju's own;
//   - when an operation that writes finds the file damaged, sets it aside
//     as journal.db.damaged-<time>, kept for the owner to inspect, and
//     starts a new journal, noting in it when and why (setAside). The
//     operation itself fails with that news; the next one works. A read
//     only reports the damage, so `juju doctor` changes nothing.

// DamagedError reports a journal database that cannot be read.
type DamagedError struct {
	Path   string // the database file
	Reason string // what is wrong with it, in words, without the path
	Aside  string // the file it was set aside as ("" when it was not)
	// Early says the damage was found before the operation changed
	// anything.
	Early bool
	fi    fs.FileInfo // the damaged file, when known
}

func (e *DamagedError) Error() string {
	if e.Aside != "" {
		return fmt.Sprintf("the journal at %s is damaged: %s; juju set it aside as %s and started a new one (the changes it held can no longer be rolled back)", e.Path, e.Reason, e.Aside)
	}
	return fmt.Sprintf("the journal at %s is damaged: %s; the next change juju makes sets it aside as %s.damaged-<time> (kept for inspection) and starts a new one", e.Path, e.Reason, filepath.Base(e.Path))
}

// abi is the error a client sees: no host path.
func (e *DamagedError) abi() *abi.Error {
	done := "nothing was changed; try again"
	if !e.Early {
		done = "read the files this change names to see whether it was made before trying again"
	}
	if e.Aside != "" {
		return abi.Errorf(abi.Internal, "juju's change journal for this workspace was damaged (%s); juju set it aside for the owner to inspect and started a new one, so changes made before now can no longer be rolled back. %s", e.Reason, upper(done))
	}
	return abi.Errorf(abi.Internal, "juju's change journal for this workspace is damaged (%s), so it cannot be read; the next change juju makes sets it aside and starts a new one. Tell the owner", e.Reason)
}

func upper(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// damaged returns a DamagedError for path; reason is in words.
func damaged(path, format string, args ...any) *DamagedError {
	return &DamagedError{Path: path, Reason: fmt.Sprintf(format, args...)}
}

// errCorrupt wraps what a record or pre-image that cannot be what juju
// wrote says: the file is damaged (withDB and view turn it into a
// DamagedError).
type errCorrupt struct{ what string }

func (e errCorrupt) Error() string { return e.what }

func corrupt(format string, args ...any) error { return errCorrupt{fmt.Sprintf(format, args...)} }

// panicError is a panic or memory fault caught by guard.
type panicError struct {
	value any
	stack []byte
}

func (e *panicError) Error() string { return fmt.Sprintf("panic: %v", e.value) }

// openPanic is a panic of bolt.Open (openBolt): bbolt could not open the
// file.
type openPanic struct{ value any }

// guard runs fn, which reads or writes the database, and returns a panic
// or memory fault in it as a *panicError. SetPanicOnFault holds for the
// calling goroutine only, which is the one bbolt works in.
func guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = &panicError{value: r, stack: debug.Stack()}
		}
	}()
	return fn()
}

// guarded runs fn under guard and names what went wrong: a damaged
// database is a *DamagedError, set aside when write. early says whether
// fn had changed nothing yet when it failed.
func (j *Journal) guarded(write bool, fn func(early *bool) error) error {
	early := true
	err := guard(func() error { return fn(&early) })
	if err == nil {
		return nil
	}
	var d *DamagedError
	var pe *panicError
	var ce errCorrupt
	switch {
	case errors.As(err, &d):
	case errors.As(err, &ce):
		d = damaged(j.path, "%s", ce.what)
	case errors.As(err, &pe):
		if op, ok := pe.value.(openPanic); ok {
			d = damaged(j.path, "bbolt cannot open it (%v)", op.value)
			break
		}
		reason := j.verify()
		if reason == "" {
			j.log.Error("journal: a panic while using the database, which reads back whole", "panic", fmt.Sprint(pe.value), "stack", string(pe.stack))
			return fmt.Errorf("journal: %w", err)
		}
		d = damaged(j.path, "%s", reason)
	default:
		return err
	}
	d.Early = early
	if write {
		j.setAside(d)
	}
	return d
}

// verify reads every key and value of the database and checks every
// pre-image against its sha256 and every record's form, and says what is
// wrong ("" when nothing is).
func (j *Journal) verify() string {
	var reason string
	err := guard(func() error {
		db, err := j.openDB(false)
		if err != nil {
			return err
		}
		defer db.Close()
		return db.View(func(tx *bolt.Tx) error {
			return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
				return b.ForEach(func(k, v []byte) error {
					switch {
					case bytes.Equal(name, bucketBlobs) && sum(v) != string(k):
						return corrupt("a stored pre-image does not match its sha256")
					case bytes.Equal(name, bucketChanges) && !json.Valid(v):
						return corrupt("the record of %s cannot be read", k)
					}
					return nil
				})
			})
		})
	})
	var d *DamagedError
	var pe *panicError
	var ce errCorrupt
	switch {
	case err == nil:
	case errors.As(err, &d):
		reason = d.Reason
	case errors.As(err, &ce):
		reason = ce.what
	case errors.As(err, &pe):
		reason = fmt.Sprintf("bbolt cannot read its pages (%v)", pe.value)
	default:
		j.log.Warn("journal: reading the database back after a panic", "err", err)
	}
	return reason
}

// damagedSuffix is put after the database's name, with the time, when it
// is set aside.
const damagedSuffix = ".damaged-"

// setAside renames the damaged database d names, when it is still the
// file at the path, and starts a new journal that notes it.
func (j *Journal) setAside(d *DamagedError) {
	now, err := os.Lstat(j.path)
	if err != nil || d.fi != nil && !os.SameFile(d.fi, now) {
		return // gone or replaced since: someone else set it aside
	}
	stamp := j.opts.now().UTC()
	name := j.path + damagedSuffix + stamp.Format("20060102T150405Z")
	for i := 2; ; i++ {
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			break
		}
		name = fmt.Sprintf("%s%s%s-%d", j.path, damagedSuffix, stamp.Format("20060102T150405Z"), i)
	}
	if err := os.Rename(j.path, name); err != nil {
		j.log.Error("journal: setting a damaged database aside", "path", j.path, "reason", d.Reason, "err", err)
		return
	}
	d.Aside = name
	note := setAsideNote{File: filepath.Base(name), Time: stamp, Reason: d.Reason}
	if err := j.create(&note); err != nil {
		j.log.Error("journal: starting a new database", "path", j.path, "err", err)
	}
	j.log.Error("journal: the database was damaged; set it aside and started a new one", "path", j.path, "reason", d.Reason, "asideAs", name)
}

// keySetAside, in the meta bucket, notes the damaged database this one
// replaced.
var keySetAside = []byte("setAside")

// setAsideNote is what a new journal notes of the damaged one it replaced.
type setAsideNote struct {
	File   string    `json:"file"` // its name, beside the new one
	Time   time.Time `json:"time"`
	Reason string    `json:"reason"`
}

// setAsideOf returns the note of tx's database (zero: none, or no tx).
func setAsideOf(tx *bolt.Tx) setAsideNote {
	var n setAsideNote
	if tx == nil {
		return n
	}
	if b := tx.Bucket(bucketMeta); b != nil {
		if v := b.Get(keySetAside); v != nil {
			json.Unmarshal(v, &n)
		}
	}
	return n
}

// unknownChange is the answer for a change id the journal does not hold.
func unknownChange(tx *bolt.Tx, id string) *abi.Error {
	msg := fmt.Sprintf("there is no change %s in this workspace's journal; list the changes with change_history", id)
	if n := setAsideOf(tx); n.File != "" {
		msg += fmt.Sprintf(" (juju found the journal damaged on %s and started a new one: changes made before then are no longer in it)", n.Time.Format(time.RFC3339))
	}
	return abi.Errorf(abi.NotFound, "%s", msg)
}
