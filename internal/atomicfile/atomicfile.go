// Package atomicfile replaces files atomically: the content goes to a
// temporary file in the same folder, which is then renamed over the target,
// so a reader sees the old file or the new one, never half of one, and a
// failure leaves no temporary file behind.
package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Options tune Write.
type Options struct {
	// Sync flushes the content to disk before the rename, for a file that
	// must survive a power cut with the content it was renamed with.
	Sync bool
}

// Write replaces path with data, with permissions perm.
func Write(path string, data []byte, perm fs.FileMode, opts Options) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil && opts.Sync {
		err = f.Sync()
	}
	if err = errors.Join(err, f.Close()); err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
