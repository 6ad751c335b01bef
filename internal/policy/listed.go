package policy

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

var errNotListed = errors.New("not the regular file the walk listed")

// openListedPortable is OpenListed through the os.Root, which follows a
// symlink that stays inside the root on the way: a swapped folder may be
// opened, but the identity check closes what it opened unread.
func (r *Root) openListedPortable(rel string, want fs.FileInfo) (*os.File, error) {
	f, err := r.OS.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK|oNoFollow, 0)
	if err != nil {
		return nil, err
	}
	return checkListed(f, want)
}

// checkListed returns f if it is the regular file want, and closes it
// otherwise.
func checkListed(f *os.File, want fs.FileInfo) (*os.File, error) {
	if got, err := f.Stat(); err != nil || !got.Mode().IsRegular() || !SameFile(got, want) {
		f.Close()
		return nil, errNotListed
	}
	return f, nil
}
