package fs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/sdk/abi"
)

// walkDir is an open folder of a walk. Every operation is relative to the
// open folder, never to a path, and never follows a symlink: a folder
// swapped for a link while the walk runs is skipped, not entered.
type walkDir interface {
	// ReadDir returns the names and types of the entries.
	ReadDir() ([]dirent, error)
	// Lstat describes the entry name.
	Lstat(name string) (fs.FileInfo, error)
	// Child opens the subfolder name; it fails if name is not a folder.
	Child(name string) (walkDir, error)
	// ReadFile reads up to max bytes of the regular file name, and
	// describes the file as it was before the read.
	ReadFile(name string, max int64) ([]byte, fs.FileInfo, error)
	// Stat describes the open folder itself.
	Stat() (fs.FileInfo, error)
	Close() error
}

// openWalk opens the resolved folder r for a walk.
func openWalk(pol *policy.Policy, r *policy.Resolved) (walkDir, *abi.Error) {
	if d, e, ok := openFastWalk(pol, r); ok {
		return d, e
	}
	root, e := pol.OpenDir(r)
	if e != nil {
		return nil, e
	}
	return rootDir{root}, nil
}

var errNotRegular = errors.New("not a regular file")

// dirent is one entry of a folder: its name and type bits.
type dirent struct {
	name string
	typ  fs.FileMode
}

// rootDir is the portable walkDir, over an *os.Root.
type rootDir struct{ r *os.Root }

func (d rootDir) ReadDir() ([]dirent, error) {
	f, err := d.r.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	out := make([]dirent, len(ents))
	for i, de := range ents {
		out[i] = dirent{name: de.Name(), typ: de.Type()}
	}
	return out, err
}

func (d rootDir) Lstat(name string) (fs.FileInfo, error) { return d.r.Lstat(name) }

func (d rootDir) Child(name string) (walkDir, error) {
	want, err := d.r.Lstat(name)
	if err != nil {
		return nil, err
	}
	sub, err := d.r.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	// OpenRoot follows a symlink that stays inside d: refuse anything but
	// the folder Lstat saw.
	if got, err := sub.Stat("."); err != nil || !os.SameFile(got, want) {
		sub.Close()
		return nil, errors.New("folder changed during the walk")
	}
	return rootDir{sub}, nil
}

func (d rootDir) ReadFile(name string, max int64) ([]byte, fs.FileInfo, error) {
	fi, err := d.r.Lstat(name)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, errNotRegular
	}
	f, err := openRegular(d.r, name, fi)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max))
	return data, fi, err
}

func (d rootDir) Stat() (fs.FileInfo, error) { return d.r.Stat(".") }

// openRegular opens name in dir to read it if it is still the regular
// file want (Lstat's): without blocking, so that a FIFO swapped in since
// cannot hold the open, and then checked.
func openRegular(dir *os.Root, name string, want fs.FileInfo) (*os.File, error) {
	f, err := dir.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if got, err := f.Stat(); err != nil || !got.Mode().IsRegular() || !os.SameFile(got, want) {
		f.Close()
		return nil, errNotRegular
	}
	return f, nil
}

func (d rootDir) Close() error { return d.r.Close() }
