package journal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

// defaultCompactMin is the free space, in bytes, past which a prune that
// left at least a quarter of the file free compacts it.
const defaultCompactMin = 1 << 20

// compactSuffix names the new file a compaction writes beside the
// database; one a crash left behind is removed by the next compaction.
const compactSuffix = ".compact"

// compact rewrites the database db (open for writing, so its lock is held)
// into a new file and renames that over path. A crash before the rename
// leaves the old file in place, one after it the new one: both hold the
// same changes. A process that opened the old file and waited for its lock
// notices the rename and opens the new one (openDB).
func compact(db *bolt.DB, path string) error {
	tmp := path + compactSuffix
	if err := os.Remove(tmp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	dst, err := bolt.Open(tmp, 0o600, nil)
	if err != nil {
		return err
	}
	if err := bolt.Compact(dst, db, 16<<20); err != nil {
		dst.Close()
		os.Remove(tmp)
		return fmt.Errorf("compact: %w", err)
	}
	if err := dst.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return syncFolder(filepath.Dir(path))
}

// syncFolder makes a rename in dir durable.
func syncFolder(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// usedBytes is the size of the database's pages in use: an upper bound of
// the bytes its records take (pages are rarely full).
func usedBytes(db *bolt.DB) int64 {
	var size int64
	db.View(func(tx *bolt.Tx) error {
		size = tx.Size()
		return nil
	})
	return size - freeBytes(db)
}

// freeBytes is the size of the database's free pages.
func freeBytes(db *bolt.DB) int64 {
	st := db.Stats()
	return int64(st.FreePageN+st.PendingPageN) * int64(db.Info().PageSize)
}

// fileSize is the size of the file at path (0 when missing).
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}
