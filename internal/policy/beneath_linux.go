//go:build linux

package policy

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync/atomic"
	"syscall"
	"unsafe"

	"github.com/jujutools/juju/sdk/abi"
)

// On Linux 5.6 and later, openat2 with RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS
// resolves a path inside a directory in the kernel, failing if any name is a
// symlink or if the path leaves the directory. A Resolved's Rel is
// symlink-free by construction, so that is exactly the check Open needs, in
// one call instead of a handle per folder; and a plain request ("a/b/c", no
// "..", or the same absolute inside the first root) that opens this way
// needs no walk in Resolve either. Anything else (a link on the way, a
// missing name, no openat2) takes the portable path.

const sysOpenat2 = 437 // the same number on every Linux architecture

const (
	resolveNoMagiclinks = 0x02
	resolveNoSymlinks   = 0x04
	resolveBeneath      = 0x08
)

// oPath is O_PATH (asm-generic; only alpha, parisc and sparc differ, and Go
// does not run there). The syscall package does not define it on amd64.
const oPath = 0x200000

type openHow struct{ flags, mode, resolve uint64 }

// openat2Works is 0 before the first call, 1 when openat2 works, 2 when the
// kernel (or a seccomp filter) refuses it.
var openat2Works atomic.Int32

var errNoOpenat2 = errors.New("openat2 is not available")

// openBeneath opens name below the folder dirfd without following any
// symlink and without leaving the folder.
func openBeneath(dirfd int, name string, flags int) (int, error) {
	if openat2Works.Load() == 2 {
		return -1, errNoOpenat2
	}
	p, err := syscall.BytePtrFromString(name)
	if err != nil {
		return -1, err
	}
	how := openHow{
		flags:   uint64(flags | syscall.O_CLOEXEC),
		resolve: resolveBeneath | resolveNoSymlinks | resolveNoMagiclinks,
	}
	for {
		fd, _, errno := syscall.Syscall6(sysOpenat2, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
		switch errno {
		case 0:
			openat2Works.Store(1)
			return int(fd), nil
		case syscall.EINTR, syscall.EAGAIN:
			continue
		case syscall.ENOSYS, syscall.EPERM, syscall.EINVAL, syscall.E2BIG:
			if openat2Works.Load() == 0 {
				openat2Works.Store(2)
				return -1, errNoOpenat2
			}
		}
		return -1, errno
	}
}

// rootFD returns the descriptor of the root's folder.
func (r *Root) rootFD() (int, bool) {
	if r.dir == nil {
		return -1, false
	}
	return r.dirfd, true
}

// fastRel is the request as a path inside the first root, when the fast
// paths can take it: no "..", no trailing slash or "/.", not the root
// itself, and relative, or absolute under a spelling of the first root and
// of no other (the walk, which enters the first root whose spelling holds
// the path, would land in the first root too).
func (p *Policy) fastRel(req string) (string, bool) {
	if namesFolder(req) || hasDotDot(req) {
		return "", false
	}
	clean := path.Clean(req)
	if !strings.HasPrefix(clean, "/") {
		return clean, clean != "."
	}
	rel, ok := "", false
	for _, s := range []string{p.roots[0].Path, p.roots[0].Real} {
		if clean != s && Within(clean, s) {
			rel, ok = strings.TrimPrefix(clean[len(s):], "/"), true
			break
		}
	}
	if !ok {
		return "", false
	}
	for _, r := range p.roots[1:] {
		if Within(clean, r.Path) || Within(clean, r.Real) {
			return "", false
		}
	}
	return rel, true
}

// fastResolve resolves a plain request (fastRel) with one openat2. ok is
// false when the request needs the walk.
func (p *Policy) fastResolve(req string) (*Resolved, bool) {
	clean, ok := p.fastRel(req)
	if !ok {
		return nil, false
	}
	root := p.roots[0]
	dirfd, ok := root.rootFD()
	if !ok {
		return nil, false
	}
	fd, err := openBeneath(dirfd, clean, oPath|syscall.O_NOFOLLOW)
	if err != nil {
		return nil, false
	}
	fi, err := fstatInfo(fd, clean)
	syscall.Close(fd)
	if err != nil || fi.Mode()&os.ModeSymlink != 0 {
		return nil, false
	}
	display := p.Display(root, clean)
	return &Resolved{Root: root, Rel: clean, Display: display, Name: display, Info: fi, beneath: true}, true
}

// fastOpen opens the regular file r with one openat2. ok is false when
// openat2 cannot be used, or for a folder: a folder is opened through the
// os.Root, so that the Info of its ReadDir entries is taken relative to its
// descriptor (a File made by os.NewFile would look entries up by path).
func (p *Policy) fastOpen(r *Resolved) (*os.File, *abi.Error, bool) {
	fd, e, ok := p.openRegular(r)
	if !ok || e != nil {
		return nil, e, ok
	}
	return os.NewFile(uintptr(fd), r.Display), nil, true
}

// fastRead is fastOpen for OpenRead: the descriptor is read as it is, and
// checked here as OpenStat checks an *os.File.
func (p *Policy) fastRead(r *Resolved) (Reader, fs.FileInfo, *abi.Error, bool) {
	fd, e, ok := p.openRegular(r)
	if !ok || e != nil {
		return nil, nil, e, ok
	}
	f := &fdFile{fd: fd, name: r.Display}
	fi, err := fstatInfo(fd, r.Display)
	if err != nil {
		f.Close()
		return nil, nil, osError(r.Display, r.Display, err), true
	}
	if e := verifyOpened(f, fi, r); e != nil {
		f.Close()
		return nil, nil, e, true
	}
	return f, fi, nil, true
}

// openRegular opens the regular file r with one openat2 and returns its
// descriptor (O_NONBLOCK: a FIFO swapped in after Resolve must not block
// the open; the caller's identity check refuses it). ok is false when
// openat2 cannot be used, or for a folder.
func (p *Policy) openRegular(r *Resolved) (int, *abi.Error, bool) {
	dirfd, ok := r.Root.rootFD()
	if !ok || openat2Works.Load() == 2 || !r.Info.Mode().IsRegular() {
		return -1, nil, false
	}
	fd, err := openBeneath(dirfd, r.Rel, syscall.O_RDONLY|syscall.O_NONBLOCK)
	switch {
	case errors.Is(err, errNoOpenat2):
		return -1, nil, false
	case errors.Is(err, syscall.ELOOP), errors.Is(err, syscall.EXDEV):
		// A name of Rel became a symlink, or a folder was moved away.
		return -1, changedError(r.Display), true
	case err != nil:
		return -1, osError(r.Display, r.Display, &os.PathError{Op: "open", Path: r.Display, Err: err}), true
	}
	return fd, nil, true
}

func hasDotDot(p string) bool {
	for name := range strings.SplitSeq(p, "/") {
		if name == ".." {
			return true
		}
	}
	return false
}

// OpenListed opens the regular file rel of the root to read it if it is
// still the file want, a walk's lstat of it: with one openat2 that follows
// no symlink on the way (a folder swapped for a link since the walk fails
// the open) and does not block (a FIFO swapped in), and then only if the
// descriptor is that regular file, same device and inode (a folder
// exchanged with another real one opens a file the walk did not list,
// which is closed unread). Without openat2 it is openListedPortable.
func (r *Root) OpenListed(rel string, want fs.FileInfo) (*os.File, error) {
	dirfd, ok := r.rootFD()
	if !ok {
		return r.openListedPortable(rel, want)
	}
	fd, err := openBeneath(dirfd, rel, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_NOFOLLOW)
	if errors.Is(err, errNoOpenat2) {
		return r.openListedPortable(rel, want)
	}
	if err != nil {
		return nil, &os.PathError{Op: "openat2", Path: rel, Err: err}
	}
	return checkListed(os.NewFile(uintptr(fd), rel), want)
}
