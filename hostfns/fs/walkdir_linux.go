//go:build linux && (amd64 || arm64 || riscv64 || loong64)

package fs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/statat"
	"github.com/jujutools/juju/sdk/abi"
)

// fdDir is the Linux walkDir: a folder descriptor used with openat and
// fstatat. Entries come from getdents with their types, so nothing is
// stat'ed but the matches.
type fdDir struct {
	fd int
	// oneArena has ReadDir keep the names of a getdents buffer in one
	// allocation (a listing, which drops them all at its end) instead of
	// one each (a walk, which may keep a few of them).
	oneArena bool
	si       *policy.StatInfo // lstatReused's answer
	nul      []byte           // lstatReused's name, NUL-terminated
	// What a walk's ReadDir saw (not a listing's): the inode of each
	// subfolder, and of "." itself, for Child to check.
	dirIno map[string]uint64
	dotIno uint64
	self   *syscall.Stat_t // the folder's fstat, once Child needs it
}

// errFolderChanged is a subfolder that is no longer the one listed.
var errFolderChanged = errors.New("folder changed during the walk")

// beforeChild, when a test sets it, runs as Child begins: between the
// listing that named the subfolder and its open.
var beforeChild func(name string)

// openFastWalk opens r, checked by the policy, and re-opens it as a plain
// descriptor ("." of the checked folder: no path is looked up again).
func openFastWalk(pol *policy.Policy, r *policy.Resolved) (walkDir, *abi.Error, bool) {
	f, e := pol.Open(r)
	if e != nil {
		return nil, e, true
	}
	defer f.Close()
	if !r.Info.IsDir() {
		return nil, notAFolder(r, "pass a folder"), true
	}
	conn, err := f.SyscallConn()
	if err != nil {
		return nil, nil, false
	}
	var d walkDir
	cerr := conn.Control(func(fd uintptr) {
		d, err = openAt(int(fd), ".", syscall.O_DIRECTORY)
	})
	if cerr != nil || err != nil {
		return nil, nil, false
	}
	return d, nil, true
}

func openAt(dirfd int, name string, flags int) (*fdDir, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Openat(dirfd, name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC|flags, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "openat", Path: name, Err: err}
	}
	return &fdDir{fd: fd}, nil
}

// direntBufs holds getdents buffers, larger than os's 8 KiB so that most
// folders take one call (and the one that says the end).
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// ReadDir reads the entries with getdents64. An entry of unknown type (some
// file systems do not say) is asked with fstatat.
func (d *fdDir) ReadDir() ([]dirent, error) {
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	var out []dirent
	for {
		n, err := syscall.ReadDirent(d.fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return out, err
		}
		if n <= 0 {
			return out, nil
		}
		out = d.parseDirents(buf[:n], out)
	}
}

// parseDirents decodes linux_dirent64 records:
// u64 ino, s64 off, u16 reclen, u8 type, name NUL-terminated.
func (d *fdDir) parseDirents(b []byte, out []dirent) []dirent {
	var arena []byte
	if d.oneArena {
		size, count := direntNames(b)
		arena = make([]byte, 0, size)
		out = slices.Grow(out, count)
	}
	for len(b) >= 19 {
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < 19 || reclen > len(b) {
			break
		}
		rec := b[:reclen]
		b = b[reclen:]
		if binary.NativeEndian.Uint64(rec[0:8]) == 0 {
			continue // deleted entry
		}
		name := rec[19:]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		if len(name) == 0 || (name[0] == '.' && (len(name) == 1 || len(name) == 2 && name[1] == '.')) {
			if len(name) == 1 && !d.oneArena {
				d.dotIno = binary.NativeEndian.Uint64(rec[0:8])
			}
			continue
		}
		var e dirent
		if len(arena)+len(name) <= cap(arena) {
			// The arena was sized for every name: appending never moves
			// it, so the names already taken stay where they are.
			arena = append(arena, name...)
			e.name = unsafe.String(&arena[len(arena)-len(name)], len(name))
		} else {
			e.name = string(name)
		}
		switch rec[18] {
		case syscall.DT_REG:
		case syscall.DT_DIR:
			e.typ = fs.ModeDir
			if !d.oneArena {
				if d.dirIno == nil {
					d.dirIno = map[string]uint64{}
				}
				d.dirIno[e.name] = binary.NativeEndian.Uint64(rec[0:8])
			}
		case syscall.DT_LNK:
			e.typ = fs.ModeSymlink
		case syscall.DT_FIFO:
			e.typ = fs.ModeNamedPipe
		case syscall.DT_SOCK:
			e.typ = fs.ModeSocket
		case syscall.DT_CHR:
			e.typ = fs.ModeDevice | fs.ModeCharDevice
		case syscall.DT_BLK:
			e.typ = fs.ModeDevice
		default:
			fi, err := d.Lstat(e.name)
			if err != nil {
				continue
			}
			e.typ = fi.Mode().Type()
		}
		out = append(out, e)
	}
	return out
}

// direntNames is the length of the names in linux_dirent64 records, and
// how many there are.
func direntNames(b []byte) (size, count int) {
	for len(b) >= 19 {
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < 19 || reclen > len(b) {
			break
		}
		name := b[19:reclen]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		size += len(name)
		count++
		b = b[reclen:]
	}
	return size, count
}

func (d *fdDir) Lstat(name string) (fs.FileInfo, error) { return policy.Lstatat(d.fd, name) }

// forListing has d's ReadDir keep the names in one allocation per
// getdents buffer, and returns the Lstat for a listing's entries: one
// FileInfo overwritten by each call.
func forListing(d walkDir) func(string) (fs.FileInfo, error) {
	if fd, ok := d.(*fdDir); ok {
		fd.oneArena = true
		return fd.lstatReused
	}
	return d.Lstat
}

// lstatReused is Lstat answering in one FileInfo for all its calls, each
// call overwriting the last: for a caller that reads the answer at once
// (a listing's entries), which then allocates nothing per entry.
func (d *fdDir) lstatReused(name string) (fs.FileInfo, error) {
	if d.si == nil {
		d.si = new(policy.StatInfo)
	}
	if strings.IndexByte(name, 0) >= 0 {
		return nil, &fs.PathError{Op: "fstatat", Path: name, Err: syscall.EINVAL}
	}
	d.nul = append(append(d.nul[:0], name...), 0)
	d.si.Base = name
	for {
		err := statat.LstatNul(d.fd, d.nul, &d.si.St)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "fstatat", Path: name, Err: err}
		}
		return d.si, nil
	}
}

// Child opens the subfolder name, following no link, and checks it is the
// folder the listing named: a process in the workspace that exchanged it
// with another folder (renameat2 RENAME_EXCHANGE, .git say) after the
// listing would have the walk list that folder's files under name, each
// a regular file its own lstat agrees with. The listing's inode (d_ino)
// is trusted only where this folder's own "." entry gives its st_ino,
// and only on the same device (a mount point's d_ino is that of the
// folder under it): some file systems (overlayfs over layers on several
// file systems, without xino) give d_ino that are not st_ino.
func (d *fdDir) Child(name string) (walkDir, error) {
	if beforeChild != nil {
		beforeChild(name)
	}
	c, err := openAt(d.fd, name, syscall.O_DIRECTORY)
	if err != nil {
		return nil, err
	}
	ino, listed := d.dirIno[name]
	if !listed || d.dotIno == 0 {
		return c, nil
	}
	if d.self == nil {
		d.self = new(syscall.Stat_t)
		if fstat(d.fd, d.self) != nil {
			d.self.Ino = 0
		}
	}
	if d.self.Ino != d.dotIno {
		return c, nil
	}
	var got syscall.Stat_t
	if err := fstat(c.fd, &got); err != nil || (got.Dev == d.self.Dev && got.Ino != ino) {
		c.Close()
		return nil, errFolderChanged
	}
	return c, nil
}

func fstat(fd int, st *syscall.Stat_t) error {
	for {
		if err := syscall.Fstat(fd, st); err != syscall.EINTR {
			return err
		}
	}
}

func (d *fdDir) ReadFile(name string, max int64) ([]byte, fs.FileInfo, error) {
	fd, err := openAt(d.fd, name, syscall.O_NONBLOCK)
	if err != nil {
		return nil, nil, err
	}
	f := os.NewFile(uintptr(fd.fd), name)
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, errNotRegular
	}
	data, err := io.ReadAll(io.LimitReader(f, max))
	return data, fi, err
}

func (d *fdDir) Stat() (fs.FileInfo, error) {
	s := &policy.StatInfo{Base: "."}
	for {
		err := syscall.Fstat(d.fd, &s.St)
		if err != syscall.EINTR {
			if err != nil {
				return nil, &fs.PathError{Op: "fstat", Path: ".", Err: err}
			}
			return s, nil
		}
	}
}

func (d *fdDir) Close() error { return syscall.Close(d.fd) }
