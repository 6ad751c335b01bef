package journal

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"syscall"

	bolt "go.etcd.io/bbolt"

	"github.com/jujutools/juju/sdk/abi"
)

// prepared is a computed change, ready to be written.
type prepared struct {
	steps []*slot
	recs  []fileRec
	diff  string
	cut   bool
	// moved, movedMore: the draft's hunks placed at other lines.
	moved     []abi.HunkOffset
	movedMore int
	plan      string // the plan it applies, forgotten when it is done
}

func (d *draft) prepare() *prepared {
	p := &prepared{steps: d.steps(), moved: d.moved, movedMore: d.movedMore}
	p.recs = make([]fileRec, len(p.steps))
	for i, s := range p.steps {
		p.recs[i] = fileRec{Root: s.root, Rel: s.rel, Path: s.display, Before: s.before, After: s.after, Count: s.count}
	}
	otherNamesChanged(p.recs)
	p.diff, p.cut = diffOf(p.steps, p.recs, d.j.opts.maxDiff)
	return p
}

// otherNamesChanged takes out of a file's count of other names those the
// same change writes or deletes too: they do not keep the old content,
// as the count tells the model they do (replace_in_files over two names
// of one file changed both and said of each that the other kept it).
func otherNamesChanged(recs []fileRec) {
	for i := range recs {
		r := &recs[i]
		if r.Before.Kind != kindFile || r.Before.OtherLinks == 0 || r.Before.id == ([2]uint64{}) {
			continue
		}
		for j, o := range recs {
			if j != i && o.Before.Kind == kindFile && o.Before.id == r.Before.id && !o.After.equal(o.Before) && r.Before.OtherLinks > 0 {
				r.Before.OtherLinks--
			}
		}
	}
}

// result describes p on the wire.
func (p *prepared) result(id string) *abi.ChangeResult {
	return &abi.ChangeResult{ChangeID: id, Files: fileChanges(p.recs), Diff: p.diff, DiffCut: p.cut, HunkOffsets: p.moved, HunkOffsetsMore: p.movedMore}
}

func (j *Journal) fault(point string) {
	if j.opts.fault != nil {
		j.opts.fault(point)
	}
}

// tempName is a temporary name for step i of change id, beside rel,
// ending in a random suffix.
func tempName(rel, id string, i int) string {
	return path.Join(path.Dir(rel), fmt.Sprintf(".juju-%s-%d-%s.tmp", id, i, tempSuffix()))
}

// tempSuffix makes temporary names unpredictable: a name anyone can
// foresee (.juju-c000042-0.tmp) can be taken first, by a folder that stops
// every write there or by a file juju would delete as its own leftover.
// A test makes it predictable.
var tempSuffix = func() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// maxTempTries bounds the names pickTemp tries.
const maxTempTries = 8

// pickTemp returns a temporary name for step i of change id, beside rel in
// root, that nothing holds now: the intent records it, and whatever holds
// that name when juju writes or recovers is taken for juju's own. One
// taken already is someone else's and is left alone.
func pickTemp(root *os.Root, rel, id string, i int) string {
	var name string
	for range maxTempTries {
		name = tempName(rel, id, i)
		dir, err := openFolder(root, path.Dir(rel))
		if err != nil {
			return name // no folder yet (the change makes it), so no name in it
		}
		_, err = dir.Lstat(path.Base(name))
		dir.close()
		if errors.Is(err, fs.ErrNotExist) {
			return name
		}
	}
	return name // the write fails on it, and leaves it alone
}

// needsTemp reports whether writing or undoing f places a file or a link,
// which goes through a temporary name.
func needsTemp(f fileRec) bool {
	return f.After.Kind == kindFile || f.After.Kind == kindSymlink || f.Before.Kind == kindFile || f.Before.Kind == kindSymlink
}

// commit writes p to disk as one all-or-nothing change and records it.
// rollbackOf names the changes p undoes (a rollback), restoredAfter the
// change after which a rollback of a range puts the paths back. The caller holds the
// database open for writing, and runs later once it has answered (see
// withLater): the files hold the change when commit returns, and later
// syncs their folders and marks the record done.
func (j *Journal) commit(db *bolt.DB, by Author, p *prepared, rollbackOf []string, restoredAfter string) (*record, func(), *abi.Error) {
	rec := &record{
		Time: j.opts.now().UTC(), Client: by.Client, Plugin: by.Plugin, Tool: by.Tool, CallID: by.CallID,
		State: statePending, Files: p.recs, Diff: p.diff, DiffCut: p.cut, DiffSplit: true, RollbackOf: rollbackOf,
		RestoredAfter: restoredAfter,
	}
	// 1. The intent, with every pre-image, durable before any file changes.
	// Meanwhile the new contents are written to unnamed files and synced
	// (see unnamedTemp): nothing visible changes, and a crash before they
	// are linked leaves nothing behind.
	temps := make([]*unnamedTemp, len(p.steps))
	var tempErr *abi.Error
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		for i, s := range p.steps {
			if j.opts.serial {
				break
			}
			if s.after.Kind != kindFile {
				continue
			}
			t, err := writeUnnamed(s.r.OS, path.Dir(s.rel), s.post, s.after.Mode)
			if err != nil && err != errNoUnnamed {
				tempErr = j.fsError(s.display, err)
				return
			}
			temps[i] = t
			if t != nil {
				j.fault(fmt.Sprintf("unnamed:%d", i))
			}
		}
	}()
	defer func() {
		<-wrote
		for _, t := range temps {
			if t != nil {
				t.close()
			}
		}
	}()
	err := db.Update(func(tx *bolt.Tx) error {
		seq, err := tx.Bucket(bucketChanges).NextSequence()
		if err != nil {
			return err
		}
		rec.ID = changeID(seq)
		blobs := tx.Bucket(bucketBlobs)
		for i, s := range p.steps {
			if needsTemp(rec.Files[i]) {
				rec.Files[i].Temp = pickTemp(s.r.OS, s.rel, rec.ID, i)
			}
			if s.before.Kind == kindFile && blobs.Get([]byte(s.before.SHA256)) == nil {
				if err := blobs.Put([]byte(s.before.SHA256), s.pre); err != nil {
					return err
				}
			}
		}
		if err := putRecord(tx, rec); err != nil {
			return err
		}
		return tx.Bucket(bucketPending).Put([]byte(rec.ID), nil)
	})
	<-wrote
	if err != nil {
		return nil, nil, j.internal("record the change", err)
	}
	if tempErr != nil {
		if err := dropRecord(db, rec.ID); err != nil {
			j.log.Error("journal: dropping an unwritten change", "id", rec.ID, "err", err)
		}
		return nil, nil, tempErr
	}
	if err := reserveFinish(db, rec); err != nil && !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, errQuota) {
		// Any other failure only leaves the mark as it was without the
		// reserve: one that fails still has its files put back.
		j.log.Warn("journal: setting aside space for a change's done mark", "id", rec.ID, "err", err)
	} else if err != nil {
		if err := dropRecord(db, rec.ID); err != nil {
			j.log.Error("journal: dropping an unwritten change", "id", rec.ID, "err", err)
		}
		return nil, nil, j.internal("record the change", err)
	}
	j.fault("intent")

	// 2. The files, one atomic replacement each, then each folder synced
	// once.
	type dirKey struct {
		r   *os.Root
		dir string
	}
	var dirs []dirKey
	seen := map[dirKey]bool{}
	for i, s := range p.steps {
		if k := (dirKey{s.r.OS, path.Dir(s.rel)}); !seen[k] {
			seen[k] = true
			dirs = append(dirs, k)
		}
		j.fault(fmt.Sprintf("write:%d", i))
		cur, err := hashState(s.r.OS, s.rel, j.opts.maxFileSize)
		var e *abi.Error
		switch {
		case err != nil:
			e = j.fsError(s.display, err)
		case !cur.equal(s.before):
			e = abi.Errorf(abi.FileChanged, "%s changed on disk while the change was being written; nothing was changed. Read it again and redo the change", abi.Quote(s.display))
		}
		if e == nil {
			mid := func() { j.fault(fmt.Sprintf("temp:%d", i)) }
			var err error
			if t := temps[i]; t != nil {
				err = placeUnnamed(s.r.OS, s.rel, rec.Files[i].Temp, t, s.after, s.post, mid)
			} else {
				err = place(s.r.OS, s.rel, rec.Files[i].Temp, s.after, s.post, mid)
			}
			if err != nil {
				e = j.fsError(s.display, err)
			}
		}
		if e != nil {
			j.undo(p, rec, i)
			if err := dropRecord(db, rec.ID); err != nil {
				j.log.Error("journal: dropping an undone change", "id", rec.ID, "err", err)
			}
			return nil, nil, e
		}
		j.fault(fmt.Sprintf("rename:%d", i))
	}
	if len(rollbackOf) == 0 {
		// The writer knows what it wrote. A rollback puts back a content
		// it may never have read: its reads stay as they were, so its next
		// write from the view it had is FILE_CHANGED until it reads again.
		for _, s := range p.steps {
			j.opts.reads.wrote(Reader(by.Client, by.Principal, by.Session), s.r, s.rel, s.post)
		}
	}
	j.observe(p)

	// 3. Done, after the answer (withLater): the folders synced, then the
	// record marked done. The mark is not synced: a crash that loses it,
	// or loses this process before it, leaves a pending record whose paths
	// all hold their new state, which recovery keeps. The folders' sync
	// comes first, so that a mark on disk never records a rename the disk
	// does not hold.
	later := func() {
		j.fault("commit")
		for _, d := range dirs {
			if err := syncDir(d.r, d.dir); err != nil {
				j.log.Warn("journal: syncing a folder", "folder", d.dir, "err", err)
			}
		}
		db.NoSync = true
		err := db.Update(func(tx *bolt.Tx) error {
			if j.opts.finishFault != nil {
				return j.opts.finishFault
			}
			if p.plan != "" {
				// A plan applied is forgotten with the mark. One a crash
				// leaves behind names files that no longer hold what it
				// was made from: applying it again is FILE_CHANGED.
				if err := tx.Bucket(bucketPlans).Delete([]byte(p.plan)); err != nil {
					return err
				}
			}
			return finish(tx, rec)
		})
		db.NoSync = false
		if err != nil {
			// The files hold the change, as its answer said; the record
			// stays pending, and the next write or start keeps it.
			j.log.Error("journal: marking a written change done; it is settled at the next write", "id", rec.ID, "err", err)
			return
		}
		j.afterCommit(db)
	}
	return rec, later, nil
}

// undo puts steps 0..last of p back to their old state, in reverse. A
// step's temporary file is gone already: place renames or removes the one
// it makes, and one it found taken is not juju's. It reports whether every
// path holds its old state, or one written since juju's, afterwards.
func (j *Journal) undo(p *prepared, rec *record, last int) bool {
	back := true
	for i := last; i >= 0; i-- {
		s := p.steps[i]
		cur, err := hashState(s.r.OS, s.rel, j.opts.maxFileSize)
		if err != nil {
			back = false
			continue
		}
		if !cur.equal(s.after) || cur.equal(s.before) {
			continue
		}
		if err := placeSynced(s.r.OS, s.rel, rec.Files[i].Temp, s.before, s.pre); err != nil {
			j.log.Error("journal: undoing a failed change", "path", s.display, "err", err)
			back = false
		}
	}
	return back
}

// finish marks rec done and the changes it rolls back as rolled back.
func finish(tx *bolt.Tx, rec *record) error {
	rec.State = stateDone
	if err := putRecord(tx, rec); err != nil {
		return err
	}
	for _, id := range rec.RollbackOf {
		old, err := getRecord(tx, id)
		if err != nil || old == nil {
			continue
		}
		old.RolledBackBy = rec.ID
		if err := putRecord(tx, old); err != nil {
			return err
		}
	}
	return tx.Bucket(bucketPending).Delete([]byte(rec.ID))
}

func dropRecord(db *bolt.DB, id string) error {
	return db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketChanges).Delete([]byte(id)); err != nil {
			return err
		}
		return tx.Bucket(bucketPending).Delete([]byte(id))
	})
}

// internal logs an unexpected failure of the journal itself.
func (j *Journal) internal(what string, err error) *abi.Error {
	if ae, ok := err.(*abi.Error); ok {
		return ae
	}
	if d, ok := err.(*DamagedError); ok {
		return d.abi() // guarded logged it
	}
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, errQuota) {
		j.log.Error("journal: "+what, "err", err)
		return abi.Errorf(abi.TooLarge, "juju could not %s in its journal because the disk holding the journal is full; free space on that disk (or tell the owner), then try again", what)
	}
	j.log.Error("journal: "+what, "err", err)
	return abi.Errorf(abi.Internal, "juju could not %s in its journal, so nothing was changed; try again, and tell the owner if it persists", what)
}

// recover settles the pending change id left by a writer that died. Each
// path holds its old state, its new state or — written by someone else
// since, or unreadable now — a third one. When no path holds its old
// state, every write happened: the change is kept. Otherwise it is undone:
// the paths holding the new state, juju's own writes, are put back; a path
// in a third state is left as it is, since what is there now was written
// after juju's write and is stored nowhere else. A path that cannot be put
// back is left too and logged: no path blocks the journal, but for a full
// disk, which keeps the change pending (TOO_LARGE) until there is room.
//
// The new contents were synced before their renames (see place), so a
// power loss leaves each path old or new, never torn: a third state is
// always someone's later work.
func (j *Journal) recover(db *bolt.DB, id string) error {
	var rec *record
	blobs := map[string][]byte{}
	err := db.View(func(tx *bolt.Tx) error {
		r, err := getRecord(tx, id)
		if err != nil || r == nil {
			return err
		}
		rec = r
		for _, f := range r.Files {
			if f.Before.Kind == kindFile {
				// bbolt checks no page: bytes overwritten in the file
				// since are read back as they are, and were put back
				// as the path's old content.
				if b := tx.Bucket(bucketBlobs).Get([]byte(f.Before.SHA256)); b != nil && sum(b) == f.Before.SHA256 {
					blobs[f.Before.SHA256] = append([]byte(nil), b...)
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("journal: recovering %s: %w", id, err)
	}
	if rec == nil {
		return db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketPending).Delete([]byte(id)) })
	}
	roots := j.pol.Roots()
	// Any size: a file is hashed as it is read, never held (a file of many
	// GiB at a pending path would otherwise stop every start).
	const noLimit = 1 << 62
	type found int
	const (
		elsewise found = iota // a third state, or unreadable
		old
		renewed
	)
	states := make([]found, len(rec.Files))
	written := true
	for i, f := range rec.Files {
		if f.Root >= len(roots) {
			j.log.Error("journal: a pending change names a root this workspace does not have", "id", id)
			return dropRecord(db, id)
		}
		r := roots[f.Root].OS
		if f.Temp != "" {
			removeTemp(r, f.Temp)
		}
		img, err := hashState(r, f.Rel, noLimit)
		switch {
		case err != nil:
			j.log.Error("journal: a path of an interrupted change cannot be read; it is left as it is", "id", id, "path", f.Path, "err", err)
		case img.equal(f.Before):
			states[i], written = old, false
		case img.equal(f.After):
			states[i] = renewed
		}
	}
	for i, f := range rec.Files {
		if states[i] == elsewise {
			j.log.Warn("journal: a path of an interrupted change was changed since; it is left as it is", "id", id, "path", f.Path)
		}
	}
	if written {
		j.log.Info("journal: kept a change interrupted after its last write", "id", id)
		if err := db.Update(func(tx *bolt.Tx) error { return finish(tx, rec) }); err != nil {
			return err
		}
		j.observeRecovered(roots, rec.Files)
		return nil
	}
	var placed []fileRec // put back, as changes from the new state to the old
	for i := len(rec.Files) - 1; i >= 0; i-- {
		f := rec.Files[i]
		if states[i] != renewed {
			continue
		}
		content, ok := blobs[f.Before.SHA256]
		if f.Before.Kind == kindFile && !ok {
			j.log.Error("journal: a pre-image is missing or damaged; the path is left as it is", "id", id, "path", f.Path)
			continue
		}
		temp := f.Temp
		if temp == "" { // recorded before every step that places a file had one
			temp = tempName(f.Rel, id, i)
		}
		if err := placeSynced(roots[f.Root].OS, f.Rel, temp, f.Before, content); err != nil {
			if errors.Is(err, syscall.ENOSPC) || errors.Is(err, errQuota) {
				// Room comes back: the change stays pending, and the
				// next write settles it, instead of leaving this path
				// new beside old ones with no record to undo it.
				j.observeRecovered(roots, placed)
				j.log.Error("journal: a path of an interrupted change cannot be put back on a full disk; the change stays pending", "id", id, "path", f.Path, "err", err)
				return abi.Errorf(abi.TooLarge, "the disk holding %s is full: juju must first put back the files of a change a crashed juju left halfway, and has no room to; free space on that disk (or tell the owner), then try again", abi.Quote(f.Path))
			}
			j.log.Error("journal: a path of an interrupted change could not be put back; it is left as it is", "id", id, "path", f.Path, "err", err)
			continue
		}
		f.Before, f.After = f.After, f.Before
		placed = append(placed, f)
	}
	j.log.Info("journal: undid a change interrupted before its last write", "id", id)
	err = dropRecord(db, id)
	j.observeRecovered(roots, placed)
	return err
}
