package policy

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/jujutools/juju/sdk/abi"
)

// pemScan is how much of a multiply-linked file is searched for a private
// key block.
const pemScan = 64 << 10

// keyMarkers are what a private key file holds whatever its format: a PEM
// block's label (OpenSSH's, PKCS#1's, PKCS#8's, encrypted or not), PuTTY's
// header (a .ppk) and an age identity (age's and sops' keys.txt).
var keyMarkers = [][]byte{[]byte("PRIVATE KEY-----"), []byte("PuTTY-User-Key-File-"), []byte("AGE-SECRET-KEY-1")}

// holdsKey reports whether b holds one of the keyMarkers.
func holdsKey(b []byte) bool {
	for _, m := range keyMarkers {
		if bytes.Contains(b, m) {
			return true
		}
	}
	return false
}

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
	if e := openable(r); e != nil {
		return nil, nil, e
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
	if e := verifyOpened(f, fi, r); e != nil {
		f.Close()
		return nil, nil, e
	}
	return f, fi, nil
}

// A Reader is a file OpenRead opened: read it, then close it.
type Reader interface {
	io.Reader
	io.ReaderAt
	io.Closer
}

// OpenRead is OpenStat for a caller that only reads the file. On Linux a
// regular file is read through the descriptor the policy opened, which
// spares the two system calls an *os.File costs (its flags, and the
// poller's refusal of a regular file); the checks are OpenStat's.
func (p *Policy) OpenRead(r *Resolved) (Reader, os.FileInfo, *abi.Error) {
	if e := openable(r); e != nil {
		return nil, nil, e
	}
	if f, fi, e, ok := p.fastRead(r); ok {
		return f, fi, e
	}
	f, fi, e := p.OpenStat(r)
	if e != nil {
		return nil, nil, e // not a typed nil
	}
	return f, fi, nil
}

// openable refuses what Open never opens: a path not resolved, a missing
// file, a FIFO, socket or device.
func openable(r *Resolved) *abi.Error {
	if r == nil || r.Root == nil {
		return abi.Errorf(abi.Internal, "the host opened a path it had not resolved; report this to the owner")
	}
	if r.Info == nil {
		return notFoundError(r.Display)
	}
	if m := r.Info.Mode(); !m.IsRegular() && !m.IsDir() {
		return abi.Errorf(abi.InvalidArgument, "%s is not a regular file (it is a FIFO, socket or device); juju reads only files and folders", abi.Quote(r.Display))
	}
	return nil
}

// verifyOpened checks that f, opened for r and described by fi, is the
// file Resolve saw, and applies the hard-link rule. The type is compared
// too: a file system may give a new file the number of one just removed,
// so a FIFO made where a resolved file was can look like it.
func verifyOpened(f io.ReaderAt, fi os.FileInfo, r *Resolved) *abi.Error {
	if !SameFile(fi, r.Info) || fi.Mode().Type() != r.Info.Mode().Type() {
		return changedError(r.Display)
	}
	if fi.Mode().IsRegular() && links(fi) > 1 {
		return pemCheck(f, r.Display)
	}
	return nil
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
		return nil, abi.Errorf(abi.InvalidArgument, "%s is a file, not a folder; read it with read_file", abi.Quote(r.Display))
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

// pemCheck refuses a file whose head holds a private key (see keyMarkers).
func pemCheck(f io.ReaderAt, display string) *abi.Error {
	buf := make([]byte, pemScan)
	n, err := f.ReadAt(buf, 0)
	if err != nil && err != io.EOF {
		return osError(display, display, err)
	}
	if holdsKey(buf[:n]) {
		return LinkedKeyError(display)
	}
	return nil
}

// LinkedKey applies the hard-link rule to a file read without Open (the
// journal reads the file a change replaces through a folder handle of its
// own): fi is the opened file's stat, content its bytes from the start.
// It reports whether fi is a regular file of more than one link whose
// first 64 KiB hold a private key (see keyMarkers), which no tool reads, and so
// none changes: the change would answer with its diff and keep it to undo.
func LinkedKey(fi fs.FileInfo, content []byte) bool {
	return MultiLinked(fi) && holdsKey(content[:min(len(content), pemScan)])
}

// MultiLinked reports whether fi is a regular file of more than one link,
// the files Open reads the head of to apply the hard-link rule.
func MultiLinked(fi fs.FileInfo) bool {
	return fi.Mode().IsRegular() && links(fi) > 1
}

// LinkedKeyError is the refusal of a file LinkedKey holds, display being
// the path the model sees.
func LinkedKeyError(display string) *abi.Error {
	return abi.Errorf(abi.SecretDenied, "%s is a hard link to a private key, which is a secret wherever it is linked; do the task without it or ask the owner", abi.Quote(display))
}
