package journal

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/jujutools/juju/sdk/abi"
)

// Limits bound what the journal keeps; Prune removes the oldest changes
// past them. A zero field turns that limit off.
type Limits struct {
	// MaxAge: a change older than this is pruned.
	MaxAge time.Duration
	// MaxSize: the oldest changes are pruned while the change records and
	// the pre-images they refer to take more bytes than this. The newest
	// change is never pruned for size.
	MaxSize int64
}

// DefaultLimits keep a month of changes, or 256 MiB of them, whichever
// ends first. A busy workspace (a thousand edits a day of files of tens of
// kilobytes) stores some 20 to 50 MiB of pre-images and diffs a day, so the
// size keeps a week or more of undo there; a quiet one keeps the month.
var DefaultLimits = Limits{MaxAge: 30 * 24 * time.Hour, MaxSize: 256 << 20}

// keyPruned, in the meta bucket, holds the newest change a prune removed:
// every change up to it is gone, and a rollback of one says so.
var keyPruned = []byte("prunedThrough")

// Stats is what the journal holds.
type Stats struct {
	Changes    int       `json:"changes"`
	Bytes      int64     `json:"bytes"`     // change records and pre-images
	FileBytes  int64     `json:"fileBytes"` // the database file on disk
	OldestID   string    `json:"oldestId,omitempty"`
	OldestTime time.Time `json:"oldestTime,omitzero"`
	// PrunedThrough is the newest change pruned so far: none up to it can
	// be rolled back.
	PrunedThrough string `json:"prunedThrough,omitempty"`
	// SetAside names the damaged journal this one replaced, kept beside
	// it, with when and why ("": none).
	SetAside string `json:"setAside,omitempty"`
	// Pending names the changes a writer left halfway as it died (killed,
	// the machine down): their files are part old, part new until the
	// next write, a server's start or `juju rollback` settles them. Read
	// under the shared lock, a live writer's change is never among them.
	Pending []string `json:"pending,omitempty"`
}

// PruneResult is what a prune did.
type PruneResult struct {
	Changes   int    `json:"changes"`         // changes removed
	First     string `json:"first,omitempty"` // the oldest and newest of them
	Last      string `json:"last,omitempty"`
	PreImages int    `json:"preImages"`  // stored contents removed
	Freed     int64  `json:"freedBytes"` // bytes of records and pre-images removed
	// Compacted says the database was rewritten into a smaller file
	// (bbolt files never shrink by themselves).
	Compacted       bool  `json:"compacted"`
	FileBytesBefore int64 `json:"fileBytesBefore"`
	Kept            Stats `json:"kept"`
}

// Limits returns the limits the journal prunes to.
func (j *Journal) Limits() Limits { return j.opts.limits }

// Prune removes the changes past the journal's limits, oldest first, and
// every pre-image no kept change refers to, in one transaction: a crash
// leaves the journal as it was before the prune or after it. When that
// freed much of the file, the database is compacted into a new file that
// replaces it. Pruned changes can no longer be rolled back.
func (j *Journal) Prune() (*PruneResult, error) {
	return j.prune(false)
}

// PruneIfDue is Prune when the oldest change is past the age limit or the
// database may hold more than the size limit, and nothing otherwise (a nil
// result). juju stdio calls it at start.
func (j *Journal) PruneIfDue() (*PruneResult, error) {
	return j.prune(true)
}

func (j *Journal) prune(ifDue bool) (*PruneResult, error) {
	var res *PruneResult
	err := j.withDB(func(db *bolt.DB) error {
		if ifDue && !j.due(db) {
			return nil
		}
		res = &PruneResult{FileBytesBefore: fileSize(j.path)}
		if err := db.Update(func(tx *bolt.Tx) error { return j.pruneTx(tx, res) }); err != nil {
			return err
		}
		if free := freeBytes(db); free >= j.opts.compactMin && free*4 >= res.FileBytesBefore {
			if err := compact(db, j.path); err != nil {
				j.log.Warn("journal: compacting the database after a prune", "err", err)
			} else {
				res.Compacted = true
			}
		}
		res.Kept.FileBytes = fileSize(j.path)
		return nil
	})
	if err != nil {
		return nil, asError(err)
	}
	return res, nil
}

// due says whether a prune would remove anything: the oldest change is
// past the age limit, or the pages in use (an upper bound of the bytes
// kept) pass the size limit.
func (j *Journal) due(db *bolt.DB) bool {
	lim := j.opts.limits
	if lim.MaxSize > 0 && usedBytes(db) > lim.MaxSize {
		return true
	}
	if lim.MaxAge <= 0 {
		return false
	}
	old := false
	db.View(func(tx *bolt.Tx) error {
		_, v := tx.Bucket(bucketChanges).Cursor().First()
		var r struct {
			Time time.Time `json:"time"`
		}
		if v != nil && json.Unmarshal(v, &r) == nil {
			old = j.opts.now().Sub(r.Time) > lim.MaxAge
		}
		return nil
	})
	return old
}

// pruned is one change as a prune weighs it.
type pruned struct {
	id   string
	time time.Time
	done bool
	size int64
	refs []string // the pre-images it refers to
}

// pruneView is the part of a record a prune reads.
type pruneView struct {
	Time  time.Time `json:"time"`
	State string    `json:"state"`
	Files []struct {
		Before image `json:"before"`
	} `json:"files"`
}

// pruneTx removes, in tx, the oldest changes past the limits and the
// pre-images no kept change refers to.
func (j *Journal) pruneTx(tx *bolt.Tx, res *PruneResult) error {
	lim, now := j.opts.limits, j.opts.now()
	changes, blobs, meta := tx.Bucket(bucketChanges), tx.Bucket(bucketBlobs), tx.Bucket(bucketMeta)
	var list []pruned
	refs := map[string]int{}
	var total int64
	err := changes.ForEach(func(k, v []byte) error {
		var r pruneView
		if err := json.Unmarshal(v, &r); err != nil {
			return corrupt("the record of %s cannot be read (%v)", k, err)
		}
		c := pruned{id: string(k), time: r.Time, done: r.State == stateDone, size: int64(len(k) + len(v))}
		for _, f := range r.Files {
			if f.Before.Kind == kindFile {
				c.refs = append(c.refs, f.Before.SHA256)
				refs[f.Before.SHA256]++
			}
		}
		total += c.size
		list = append(list, c)
		return nil
	})
	if err != nil {
		return err
	}
	sizes := map[string]int64{}
	blobs.ForEach(func(k, v []byte) error {
		n := int64(len(k) + len(v))
		sizes[string(k)] = n
		if refs[string(k)] > 0 {
			total += n
		}
		return nil
	})
	// The oldest changes go first, and only a prefix of them: every change
	// up to the newest pruned one is gone, so "pruned" is one id to keep.
	n := 0
	for ; n < len(list); n++ {
		c := list[n]
		old := lim.MaxAge > 0 && now.Sub(c.time) > lim.MaxAge
		big := lim.MaxSize > 0 && total > lim.MaxSize && n < len(list)-1
		if !c.done || !old && !big {
			break
		}
		total -= c.size
		for _, h := range c.refs {
			if refs[h]--; refs[h] == 0 {
				total -= sizes[h]
			}
		}
	}
	for _, c := range list[:n] {
		if err := changes.Delete([]byte(c.id)); err != nil {
			return err
		}
		res.Freed += c.size
	}
	for h, size := range sizes {
		if refs[h] > 0 {
			continue
		}
		if err := blobs.Delete([]byte(h)); err != nil {
			return err
		}
		res.PreImages++
		res.Freed += size
	}
	if n > 0 {
		res.Changes, res.First, res.Last = n, list[0].id, list[n-1].id
		if err := meta.Put(keyPruned, []byte(res.Last)); err != nil {
			return err
		}
	}
	res.Kept.Bytes = total
	res.Kept.PrunedThrough = string(meta.Get(keyPruned))
	for _, c := range list[n:] {
		if c.done {
			res.Kept.Changes++
			if res.Kept.OldestID == "" {
				res.Kept.OldestID, res.Kept.OldestTime = c.id, c.time
			}
		}
	}
	return nil
}

// Stats reports what the journal holds. A workspace nothing was ever
// written in has an empty journal and no file.
func (j *Journal) Stats() (Stats, error) {
	var s Stats
	if _, err := os.Stat(j.path); os.IsNotExist(err) {
		return s, nil
	}
	err := j.view(func(tx *bolt.Tx) error {
		refs := map[string]bool{}
		err := tx.Bucket(bucketChanges).ForEach(func(k, v []byte) error {
			var r pruneView
			if err := json.Unmarshal(v, &r); err != nil {
				return corrupt("the record of %s cannot be read (%v)", k, err)
			}
			s.Bytes += int64(len(k) + len(v))
			for _, f := range r.Files {
				if f.Before.Kind == kindFile {
					refs[f.Before.SHA256] = true
				}
			}
			if r.State != stateDone {
				return nil
			}
			s.Changes++
			if s.OldestID == "" {
				s.OldestID, s.OldestTime = string(k), r.Time
			}
			return nil
		})
		if err != nil {
			return err
		}
		if b := tx.Bucket(bucketBlobs); b != nil {
			b.ForEach(func(k, v []byte) error {
				if refs[string(k)] {
					s.Bytes += int64(len(k) + len(v))
				}
				return nil
			})
		}
		s.PrunedThrough = prunedThrough(tx)
		if n := setAsideOf(tx); n.File != "" {
			s.SetAside = fmt.Sprintf("%s (found damaged on %s: %s)", n.File, n.Time.Format(time.RFC3339), n.Reason)
		}
		if b := tx.Bucket(bucketPending); b != nil {
			b.ForEach(func(k, _ []byte) error {
				s.Pending = append(s.Pending, string(k))
				return nil
			})
		}
		return nil
	})
	if err != nil {
		return Stats{}, asError(err)
	}
	s.FileBytes = fileSize(j.path)
	return s, nil
}

// prunedThrough is the newest change pruned from the database of tx ("":
// none).
func prunedThrough(tx *bolt.Tx) string {
	if b := tx.Bucket(bucketMeta); b != nil {
		return string(b.Get(keyPruned))
	}
	return ""
}

// prunedError is the answer for change id, gone in a prune that removed
// every change up to through.
func (j *Journal) prunedError(id, through string) *abi.Error {
	return abi.Errorf(abi.NotFound, "change %s was pruned from the journal, which keeps %s, so it can no longer be rolled back (every change up to %s is gone); see change_history for the changes it still holds",
		id, j.opts.limits, through)
}

// String says the limits in words: "30 days or 256 MiB of changes".
func (l Limits) String() string {
	var age, size string
	if l.MaxAge > 0 {
		if d := l.MaxAge / (24 * time.Hour); d*24*time.Hour == l.MaxAge {
			age = fmt.Sprintf("%d days", d)
		} else {
			age = l.MaxAge.String()
		}
	}
	if l.MaxSize > 0 {
		size = fmt.Sprintf("%d MiB", l.MaxSize>>20)
		if l.MaxSize < 1<<20 {
			size = fmt.Sprintf("%d bytes", l.MaxSize)
		}
	}
	switch {
	case age != "" && size != "":
		return fmt.Sprintf("the changes of the last %s, up to %s", age, size)
	case age != "":
		return fmt.Sprintf("the changes of the last %s", age)
	case size != "":
		return fmt.Sprintf("up to %s of changes", size)
	}
	return "every change"
}
