//go:build linux

package policy

import (
	"io"
	"io/fs"
	"path"
	"syscall"
	"time"
)

// A StatInfo is the fs.FileInfo of a stat taken without an *os.File (an
// fstat of a descriptor the policy opened, the walk's fstatat: the caller
// fills St), read as os reads one: a descriptor made into an *os.File
// costs two system calls more (os.NewFile asks for its flags, and a
// non-blocking one is offered to the poller, which refuses a regular
// file). Sys is &St, so that SameFile and links read it as they read os's.
type StatInfo struct {
	Base string // the name's last element
	St   syscall.Stat_t
}

// fstatInfo stats fd, whose path ends in name.
func fstatInfo(fd int, name string) (fs.FileInfo, error) {
	s := &StatInfo{Base: path.Base(name)}
	for {
		err := syscall.Fstat(fd, &s.St)
		if err != syscall.EINTR {
			if err != nil {
				return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
			}
			return s, nil
		}
	}
}

func (s *StatInfo) Name() string       { return s.Base }
func (s *StatInfo) Size() int64        { return s.St.Size }
func (s *StatInfo) ModTime() time.Time { return time.Unix(s.St.Mtim.Unix()) }
func (s *StatInfo) IsDir() bool        { return s.Mode().IsDir() }
func (s *StatInfo) Sys() any           { return &s.St }

// Mode is os's reading of st_mode.
func (s *StatInfo) Mode() fs.FileMode {
	m := fs.FileMode(s.St.Mode & 0o777)
	switch s.St.Mode & syscall.S_IFMT {
	case syscall.S_IFBLK:
		m |= fs.ModeDevice
	case syscall.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		m |= fs.ModeDir
	case syscall.S_IFIFO:
		m |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		m |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		m |= fs.ModeSocket
	}
	if s.St.Mode&syscall.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if s.St.Mode&syscall.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if s.St.Mode&syscall.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// fdFile reads a regular file through a descriptor the policy opened, as
// an *os.File would, without the poller (a regular file never blocks).
type fdFile struct {
	fd   int
	name string // the display path, for errors
}

func (f *fdFile) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	for {
		n, err := syscall.Read(f.fd, b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: f.name, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// ReadAt reads len(b) bytes from off, or fewer and the reason: io.EOF at
// the file's end.
func (f *fdFile) ReadAt(b []byte, off int64) (int, error) {
	if off < 0 {
		return 0, &fs.PathError{Op: "readat", Path: f.name, Err: syscall.EINVAL}
	}
	done := 0
	for done < len(b) {
		n, err := syscall.Pread(f.fd, b[done:], off+int64(done))
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return done, &fs.PathError{Op: "read", Path: f.name, Err: err}
		case n == 0:
			return done, io.EOF
		}
		done += n
	}
	return done, nil
}

func (f *fdFile) Close() error {
	if f.fd < 0 {
		return fs.ErrClosed
	}
	err := syscall.Close(f.fd)
	f.fd = -1
	return err
}
