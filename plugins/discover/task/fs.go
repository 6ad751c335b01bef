package task

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
)

// FS is the workspace as a discoverer sees it: paths relative to the
// first root, with forward slashes.
type FS interface {
	// ReadFile returns a file's bytes.
	ReadFile(name string) ([]byte, error)
	// ReadHead returns up to the first n bytes of a file.
	ReadHead(name string, n int64) ([]byte, error)
	// Exists reports whether a file or folder exists.
	Exists(name string) bool
	// Executable reports whether name is a file with an execute bit.
	Executable(name string) bool
	// List returns the names of the entries of the folder dir, folders
	// with a trailing slash; nil when it cannot be listed.
	List(dir string) []string
	// Grep returns the lines that match the regular expression re (RE2)
	// in the files below dir whose names match the glob name ("*.go"),
	// entering no folder of SkipDirs nor any whose name matches one of the
	// globs skip ("testdata", "_*"). ErrIncomplete (with what was found)
	// says it stopped at a bound.
	Grep(dir, name, re string, skip []string) ([]Hit, error)
}

// Hit is one line Grep found.
type Hit struct {
	Path string // root-relative, forward slashes
	Line int    // 1-based
	Text string
}

// ErrIncomplete says a Grep stopped at one of its bounds: there may be
// more matches than it returned.
var ErrIncomplete = errors.New("the search stopped at its bound; some files were not searched")

// DirFS is an FS over a folder of the host, for tests.
type DirFS string

// ReadFile reads name below the folder.
func (d DirFS) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, errors.New("invalid path")
	}
	return os.ReadFile(filepath.Join(string(d), filepath.FromSlash(name)))
}

// ReadHead reads the first n bytes of name below the folder.
func (d DirFS) ReadHead(name string, n int64) ([]byte, error) {
	b, err := d.ReadFile(name)
	if int64(len(b)) > n {
		b = b[:n]
	}
	return b, err
}

// Exists reports whether name exists below the folder.
func (d DirFS) Exists(name string) bool {
	if !fs.ValidPath(name) {
		return false
	}
	_, err := os.Lstat(filepath.Join(string(d), filepath.FromSlash(name)))
	return err == nil
}

// Executable reports whether name is a regular file with an execute bit.
func (d DirFS) Executable(name string) bool {
	if !fs.ValidPath(name) {
		return false
	}
	info, err := os.Lstat(filepath.Join(string(d), filepath.FromSlash(name)))
	return err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0
}

// List lists the folder dir.
func (d DirFS) List(dir string) []string {
	ents, err := os.ReadDir(filepath.Join(string(d), filepath.FromSlash(dir)))
	if err != nil {
		return nil
	}
	out := make([]string, len(ents))
	for i, e := range ents {
		out[i] = e.Name()
		if e.IsDir() {
			out[i] += "/"
		}
	}
	return out
}

// Grep searches the folder with WalkGrep.
func (d DirFS) Grep(dir, name, re string, skip []string) ([]Hit, error) {
	rx, err := regexp.Compile(re)
	if err != nil {
		return nil, err
	}
	return WalkGrep(d, dir, name, rx, skip)
}
