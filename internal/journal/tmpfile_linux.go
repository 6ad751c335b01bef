package journal

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"strconv"

	"golang.org/x/sys/unix"
)

// An unnamed temporary file (O_TMPFILE) holds a file's new content before
// the change's intent is recorded: it is written and synced while the
// intent commits, and a crash before it is linked leaves nothing behind,
// as the file never had a name. Once the intent is durable it is linked
// under its temporary name (which the intent records) and renamed over
// the path, as a named temporary file would be.
type unnamedTemp struct {
	dir *os.File // the folder, opened beneath the root
	f   *os.File
}

// errNoUnnamed reports a folder or file system without O_TMPFILE (or a
// folder that does not exist yet): the change writes a named temporary
// file after its intent instead.
var errNoUnnamed = errors.New("no unnamed temporary file here")

// writeUnnamed writes content with mode into an unnamed file in dir
// (inside root), synced.
func writeUnnamed(root *os.Root, dir string, content []byte, mode fs.FileMode) (*unnamedTemp, error) {
	if mode == 0 {
		mode = newFileMode
	}
	f, err := openFolder(root, dir)
	if err != nil {
		return nil, errNoUnnamed
	}
	d, err := f.Open(".")
	f.close()
	if err != nil {
		return nil, errNoUnnamed
	}
	fd, err := unix.Openat(int(d.Fd()), ".", unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, uint32(mode.Perm()))
	if err != nil {
		d.Close()
		return nil, errNoUnnamed
	}
	t := &unnamedTemp{dir: d, f: os.NewFile(uintptr(fd), path.Join(dir, "(unnamed)"))}
	_, err = t.f.Write(content)
	if err == nil {
		err = t.f.Chmod(mode) // the umask may have narrowed it
	}
	if err == nil {
		err = datasync(t.f)
	}
	if err != nil {
		t.close()
		return nil, err
	}
	return t, nil
}

// link gives the file the name temp (in its folder), which must be free.
// Linking by the descriptor itself needs a capability most users lack;
// /proc's link to it does not.
func (t *unnamedTemp) link(temp string) error {
	name := path.Base(temp)
	err := unix.Linkat(int(t.f.Fd()), "", int(t.dir.Fd()), name, unix.AT_EMPTY_PATH)
	if err != nil {
		err = unix.Linkat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(int(t.f.Fd())), int(t.dir.Fd()), name, unix.AT_SYMLINK_FOLLOW)
	}
	return err
}

// in reports whether t was made in dir: the folder a change writes in
// must be the one its new content waits in.
func (t *unnamedTemp) in(dir *os.Root) bool {
	at, err := t.dir.Stat()
	if err != nil {
		return false
	}
	now, err := dir.Stat(".")
	return err == nil && os.SameFile(at, now)
}

// file is the unnamed file.
func (t *unnamedTemp) file() *os.File { return t.f }

// close drops the file; unlinked, its content goes with it.
func (t *unnamedTemp) close() {
	t.f.Close()
	t.dir.Close()
}
