package policy

import (
	"bytes"
	"io"
	"os"
	"strings"
	"syscall"

	"github.com/jujutools/juju/sdk/abi"
)

// pemScan is how much of a multiply-linked file is searched for a private
// key block.
const pemScan = 64 << 10

var pemMarker = []byte("PRIVATE KEY-----")

// Open opens a resolved file or folder for reading. It reaches r.Rel again
// without following any symlink (openat2 on Linux, else folder handles
// checked one by one), checks that the opened file is the one Resolve saw
// (FILE_CHANGED otherwise), refuses special files, and applies the
// hard-link rule of the package comment. A folder is opened through the
// root's os.Root, so the Info of its ReadDir entries is safe to use.
func (p *Policy) Open(r *Resolved) (*os.File, *abi.Error) {
	f, _, e := p.OpenStat(r)
	return f, e
}

// OpenStat is Open, and returns the opened file's own stat too: the one
// the identity check compared, fresher than r.Info (a read needs its size
// and time, and a stat of its own would be one more system call).
func (p *Policy) OpenStat(r *Resolved) (*os.File, os.FileInfo, *abi.Error) {
	if r == nil || r.Root == nil {
		return nil, nil, abi.Errorf(abi.Internal, "the host opened a path it had not resolved; report this to the owner")
	}
	if r.Info == nil {
		return nil, nil, notFoundError(r.Display)
	}
	if m := r.Info.Mode(); !m.IsRegular() && !m.IsDir() {
		return nil, nil, abi.Errorf(abi.InvalidArgument, "%s is not a regular file (it is a FIFO, socket or device); juju reads only files and folders", quote(r.Display))
	}
	// O_NONBLOCK: a FIFO swapped in after Resolve must not block the open.
	f, e, ok := p.fastOpen(r)
	if e != nil {
		return nil, nil, e
	}
	if !ok {
		dir, name, done, e := p.openParent(r)
		if e != nil {
			return nil, nil, e
		}
		var err error
		f, err = dir.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		done()
		if err != nil {
			return nil, nil, osError(r.Display, r.Display, err)
		}
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, osError(r.Display, r.Display, err)
	}
	if !os.SameFile(fi, r.Info) {
		f.Close()
		return nil, nil, changedError(r.Display)
	}
	if fi.Mode().IsRegular() && links(fi) > 1 {
		if e := pemCheck(f, r.Display); e != nil {
			f.Close()
			return nil, nil, e
		}
	}
	return f, fi, nil
}

// OpenDir opens a resolved folder as an *os.Root, for walks, with the same
// checks as Open. The caller closes it.
func (p *Policy) OpenDir(r *Resolved) (*os.Root, *abi.Error) {
	if r == nil || r.Root == nil {
		return nil, abi.Errorf(abi.Internal, "the host opened a path it had not resolved; report this to the owner")
	}
	if r.Info == nil {
		return nil, notFoundError(r.Display)
	}
	if !r.Info.IsDir() {
		return nil, abi.Errorf(abi.InvalidArgument, "%s is a file, not a folder; read it with read_file", quote(r.Display))
	}
	dir, name, done, e := p.openParent(r)
	if e != nil {
		return nil, e
	}
	defer done()
	return openVerified(dir, name, r.Info, r.Display, r.Display)
}

// openParent walks the folders of r.Rel and returns a handle on the last one,
// the name to open in it, and a function that closes what was opened.
func (p *Policy) openParent(r *Resolved) (*os.Root, string, func(), *abi.Error) {
	if r.Rel == "." {
		return r.Root.OS, ".", func() {}, nil
	}
	if r.beneath {
		// Resolved in one openat2, without a handle per folder: let the
		// os.Root walk (it never leaves the root); the caller's identity
		// check on the opened object is what counts.
		return r.Root.OS, r.Rel, func() {}, nil
	}
	names := strings.Split(r.Rel, "/")
	if len(r.chain) != len(names)-1 {
		return nil, "", nil, abi.Errorf(abi.Internal, "the host opened a path it had not resolved; report this to the owner")
	}
	var opened []*os.Root
	done := func() {
		for _, d := range opened {
			d.Close()
		}
	}
	cur := r.Root.OS
	for i, name := range names[:len(names)-1] {
		sub, e := openVerified(cur, name, r.chain[i], r.Display, p.Display(r.Root, strings.Join(names[:i+1], "/")))
		if e != nil {
			done()
			return nil, "", nil, e
		}
		opened = append(opened, sub)
		cur = sub
	}
	return cur, names[len(names)-1], done, nil
}

// pemCheck refuses a file whose head holds a PEM private key block.
func pemCheck(f *os.File, display string) *abi.Error {
	buf := make([]byte, pemScan)
	n, err := f.ReadAt(buf, 0)
	if err != nil && err != io.EOF {
		return osError(display, display, err)
	}
	if bytes.Contains(buf[:n], pemMarker) {
		return abi.Errorf(abi.SecretDenied, "%s is a hard link to a private key, which is a secret wherever it is linked; do the task without it or ask the owner", quote(display))
	}
	return nil
}
