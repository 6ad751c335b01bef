//go:build linux && (amd64 || arm64 || riscv64 || loong64)

package policy

import (
	"io/fs"
	"path"
	"syscall"

	"github.com/jujutools/juju/internal/statat"
)

// Lstatat describes name in the folder dirfd without following it (fstatat
// with AT_SYMLINK_NOFOLLOW). Names of more than one element follow the
// symlinks on their way: give it one name, or use it only as a filter.
func Lstatat(dirfd int, name string) (fs.FileInfo, error) {
	si := &StatInfo{Base: path.Base(name)}
	for {
		err := statat.Lstat(dirfd, name, &si.St)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "fstatat", Path: name, Err: err}
		}
		return si, nil
	}
}

// afterLstat, when a test sets it, runs between ResolveRegular's stat and
// its open: the moment a swapped file would slip through.
var afterLstat func()

// ResolveRegular is Resolve and OpenRead in one, for a caller that reads
// the file it asks for: a plain request (fastRel: no "..", no trailing
// slash, relative or absolute inside the first root) naming a regular file
// is opened with one openat2, which follows no symlink and stays below the
// root, instead of being resolved with one (O_PATH, a stat, a close) and
// then opened with another. ok is
// false for anything else — a symlink on the way, a folder, a missing
// name, a special file, a file with other hard links, a request the name
// rules refuse, a kernel without openat2 — and then nothing is open: the
// caller calls Resolve and OpenRead, which say why.
//
// The name is stat'ed first, and opened only when that says it is a
// regular file, so that a device is never opened (opening one can act on
// it). That stat follows the symlinks on the way, but it only filters:
// the open follows none, and what it opened is stat'ed again and must be
// a regular file, so a FIFO swapped in meanwhile (opened without blocking)
// is closed unread.
func (p *Policy) ResolveRegular(req string) (r *Resolved, f Reader, fi fs.FileInfo, ok bool) {
	clean, ok := p.fastRel(req)
	if !ok || openat2Works.Load() == 2 {
		return nil, nil, nil, false
	}
	if Validate(req) != nil || p.precheck(req) != nil {
		return nil, nil, nil, false // the name rules applied to every name
	}
	root := p.roots[0]
	dirfd, ok := root.rootFD()
	if !ok {
		return nil, nil, nil, false
	}
	if pre, err := Lstatat(dirfd, clean); err != nil || !pre.Mode().IsRegular() {
		return nil, nil, nil, false
	}
	if afterLstat != nil {
		afterLstat()
	}
	fd, err := openBeneath(dirfd, clean, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY)
	if err != nil {
		return nil, nil, nil, false
	}
	fi, err = fstatInfo(fd, clean)
	if err != nil || !fi.Mode().IsRegular() || links(fi) > 1 {
		// A hard-linked file gets OpenRead's content check.
		syscall.Close(fd)
		return nil, nil, nil, false
	}
	display := p.Display(root, clean)
	r = &Resolved{Root: root, Rel: clean, Display: display, Name: display, Info: fi, beneath: true}
	return r, &fdFile{fd: fd, name: display}, fi, true
}
