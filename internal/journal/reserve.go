package journal

import (
	"os"

	bolt "go.etcd.io/bbolt"
)

// reserveFinish sets aside, on disk, the space the transaction that marks
// rec done will take: the pages it writes anew (rec and the records it
// rolls back, each leaf with the neighbour that may share it, the
// free-page list, the branches above) as real blocks past the database's
// last page. bbolt grows its file sparse and writes its pages later, so
// on a disk the change's own files (or anything else) filled after its
// intent, the mark failed, and the files could not be put back on the
// full disk either: the change was written and not recorded. A failure
// here is before any file is touched.
func reserveFinish(db *bolt.DB, rec *record) error {
	var end, need int64
	err := db.View(func(tx *bolt.Tx) error {
		end = tx.Size()
		c := tx.Bucket(bucketChanges).Cursor()
		for _, id := range append([]string{rec.ID}, rec.RollbackOf...) {
			k, v := c.Seek([]byte(id))
			if string(k) != id {
				continue
			}
			// A leaf holds at least two records, so a large one may
			// share rec's: the larger of its neighbours.
			_, prev := c.Prev()
			c.Seek([]byte(id))
			_, next := c.Next()
			need += int64(len(v) + max(len(prev), len(next)))
		}
		return nil
	})
	if err != nil {
		return err
	}
	page := int64(db.Info().PageSize)
	st := db.Stats()
	need += 2*8*int64(st.FreePageN+st.PendingPageN) + reservePages*page
	f, err := os.OpenFile(db.Path(), os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	err = allocate(f, end, end+need)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// reservePages are the pages set aside for a done mark besides its
// records: the branches above them, the pending bucket, the root.
const reservePages = 16

// writeZeros writes zeros over f from from to end.
func writeZeros(f *os.File, from, end int64) error {
	zeros := make([]byte, 64<<10)
	for off := from; off < end; {
		n := min(int64(len(zeros)), end-off)
		if _, err := f.WriteAt(zeros[:n], off); err != nil {
			return err
		}
		off += n
	}
	return nil
}
