package journal

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
)

// peers follows what other processes did to the database while this one
// runs. A writer holds the file lock for its whole change, so a pending
// record found under a shared lock belongs to a writer that died halfway:
// another juju on the same workspace, killed mid-apply. The start's
// Recover settles only what was pending then; a juju that keeps running
// beside the one that died must settle it too before its next call looks
// at the workspace, or that call sees old and new files together.
type peers struct {
	mu   sync.Mutex              // one look at a time
	seen atomic.Pointer[dbStamp] // the database as this process last knew it settled
}

// dbStamp is the database file at one moment: the file and its last
// committed transaction, and its modification time and size, which one
// stat compares when timeOK.
type dbStamp struct {
	fi     os.FileInfo
	txid   uint64
	timeOK bool // fi's time was older than stampMargin when taken
}

// stampMargin is how recent a modification time must be for juju not to
// trust it: a file system's clock ticks coarsely (up to 10 ms), so another
// process's commit within the same tick leaves the time as it was. Such a
// dbStamp is compared by its transaction id, read from the file's header.
const stampMargin = 20 * time.Millisecond

// noteSettled records the database, fi as of transaction txid, as settled.
// The caller holds its file lock, or found nothing pending under it.
func (j *Journal) noteSettled(fi os.FileInfo, txid uint64) {
	if fi == nil {
		j.peers.seen.Store(nil)
		return
	}
	j.peers.seen.Store(&dbStamp{fi: fi, txid: txid, timeOK: time.Since(fi.ModTime()) >= stampMargin})
}

// settlePeers settles a change another process left pending when the
// database changed since this process last knew it settled. It costs one
// stat when nothing changed (a read of the file's header just after a
// change). Another process's change in progress is waited for (up to the
// lock timeout); a journal that cannot be read is left to the writes,
// which report it.
func (j *Journal) settlePeers() {
	p := &j.peers
	p.mu.Lock()
	defer p.mu.Unlock()
	fi, err := os.Stat(j.path)
	if err != nil {
		return // no journal yet: nothing can be pending
	}
	old := p.seen.Load()
	if old != nil && old.timeOK && sameStamp(fi, old.fi) {
		return
	}
	if old != nil && os.SameFile(fi, old.fi) {
		if txid, ok := headerTxid(j.path); ok && txid == old.txid {
			j.noteSettled(fi, txid)
			return
		}
	}
	pending := false
	var txid uint64
	err = j.view(func(tx *bolt.Tx) error {
		txid = uint64(tx.ID())
		if b := tx.Bucket(bucketPending); b != nil {
			k, _ := b.Cursor().First()
			pending = k != nil
		}
		return nil
	})
	switch {
	case errors.Is(err, errBusy):
		j.log.Debug("journal: another juju holds the journal; not waiting longer for it", "err", err)
		return
	case err != nil:
		j.log.Debug("journal: looking for a change another juju left pending", "err", err)
	case pending:
		j.log.Warn("journal: another juju process left a change halfway (it was killed or crashed); settling it")
		if err := j.Recover(); err != nil {
			j.log.Warn("journal: settling a change another juju left pending", "err", err)
		}
		return // Recover noted the settled database
	}
	j.noteSettled(fi, txid)
}

// headerTxid reads the last committed transaction id from the database's
// two header pages, without locking or mapping it.
func headerTxid(path string) (uint64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	m0, ok0 := readMeta(f, 0)
	at := int64(os.Getpagesize())
	if ok0 {
		at = int64(m0.pageSize)
	}
	m1, ok1 := readMeta(f, at)
	switch {
	case ok0 && ok1:
		return max(m0.txid, m1.txid), true
	case ok0:
		return m0.txid, true
	case ok1:
		return m1.txid, true
	}
	return 0, false
}

// sameStamp says whether a and b are the same file, unchanged.
func sameStamp(a, b os.FileInfo) bool {
	return os.SameFile(a, b) && a.ModTime().Equal(b.ModTime()) && a.Size() == b.Size()
}
