package journal

import (
	bin "encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// What a file or folder holds besides its content and mode: its owner and
// group and its extended attributes (POSIX ACLs, user.*, SELinux labels).
// A change replaces a file with a new one, writes a moved file anew and
// recreates a deleted one at its rollback: each new inode would belong to
// juju's user and hold only what its folder gives, so an edit dropped an
// ACL (and its mask, kept in the mode's group bits, then gave the owning
// group what the mask allowed a named user), and a move or an undone
// delete under a root juju made a user's file root's.
type meta struct {
	UID int `json:"uid"`
	GID int `json:"gid"`
	// Xattrs are the extended attributes, when XattrsKept says they are
	// all here (they are bounded, see maxXattrBytes); otherwise the new
	// file takes those of the file it replaces, if any.
	Xattrs     []xattr `json:"xattrs,omitempty"`
	XattrsKept bool    `json:"xattrsKept,omitempty"`
}

type xattr struct {
	Name  string `json:"name"`
	Value []byte `json:"value"`
}

// maxXattrBytes bounds the extended attributes a record keeps of a path.
const maxXattrBytes = 16 << 10

// contentBound reports the attributes that vouch for a content, which a
// new content must not inherit: file capabilities (the kernel drops them
// at any write too) and the integrity subsystem's hashes and signatures.
func contentBound(name string) bool {
	return name == "security.capability" || strings.HasPrefix(name, "security.ima") || strings.HasPrefix(name, "security.evm")
}

// fileMeta returns what f, an open file or folder, holds besides its
// content and mode.
func fileMeta(f *os.File, fi fs.FileInfo) *meta {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	m := &meta{UID: int(st.Uid), GID: int(st.Gid)}
	m.Xattrs, m.XattrsKept = xattrsOf(int(f.Fd()))
	return m
}

// xattrsOf lists the extended attributes of fd, less the content-bound
// ones, and reports whether it got them all within maxXattrBytes.
func xattrsOf(fd int) ([]xattr, bool) {
	names, err := listXattrs(fd)
	if err != nil {
		return nil, errors.Is(err, unix.ENOTSUP)
	}
	var out []xattr
	total := 0
	for _, n := range names {
		if contentBound(n) {
			continue
		}
		v, err := getXattr(fd, n)
		if errors.Is(err, unix.ENODATA) {
			continue // removed since it was listed
		}
		if err != nil {
			return nil, false
		}
		if total += len(n) + len(v); total > maxXattrBytes {
			return nil, false
		}
		out = append(out, xattr{Name: n, Value: v})
	}
	return out, true
}

func listXattrs(fd int) ([]string, error) {
	size, err := unix.Flistxattr(fd, nil)
	for range 4 {
		if err != nil || size == 0 {
			return nil, err
		}
		buf := make([]byte, size)
		n, err2 := unix.Flistxattr(fd, buf)
		if errors.Is(err2, unix.ERANGE) { // grew since
			size, err = unix.Flistxattr(fd, nil)
			continue
		}
		if err2 != nil {
			return nil, err2
		}
		var names []string
		for n := range strings.SplitSeq(string(buf[:n]), "\x00") {
			if n != "" {
				names = append(names, n)
			}
		}
		return names, nil
	}
	return nil, unix.ERANGE
}

func getXattr(fd int, name string) ([]byte, error) {
	for range 4 {
		size, err := unix.Fgetxattr(fd, name, nil)
		if err != nil {
			return nil, err
		}
		buf := make([]byte, size)
		n, err := unix.Fgetxattr(fd, name, buf)
		if errors.Is(err, unix.ERANGE) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return buf[:n], nil
	}
	return nil, unix.ERANGE
}

// applyMeta gives f, a new file or folder that takes the place of name in
// dir, the owner, group and extended attributes m records or, where m
// has none (a record made before juju kept them, a file juju makes),
// those of what name holds now, as far as juju may: without the right
// to give the owner the group alone is tried, and an attribute refused
// (trusted.* as a user, a label the policy refuses, a file system without
// them) is left out. It reports whether f changed, after which the
// caller sets its mode again: a change of owner drops setuid and setgid,
// and an access ACL rewrites the group bits.
func applyMeta(dir *os.Root, name string, f *os.File, m *meta) bool {
	var like *meta
	if m == nil || !m.XattrsKept {
		if old, err := dir.Lstat(name); err == nil && old.Mode().IsRegular() {
			if o, err := dir.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0); err == nil {
				if at, err := o.Stat(); err == nil && os.SameFile(at, old) {
					like = fileMeta(o, at)
				}
				o.Close()
			}
		}
	}
	if m == nil {
		m = like
	} else if !m.XattrsKept && like != nil {
		m = &meta{UID: m.UID, GID: m.GID, Xattrs: like.Xattrs, XattrsKept: like.XattrsKept}
	}
	if m == nil {
		return false
	}
	changed := giveOwner(f, m.UID, m.GID)
	if !m.XattrsKept {
		return changed
	}
	fd := int(f.Fd())
	want := map[string]bool{}
	for _, x := range m.Xattrs {
		want[x.Name] = true
		if cur, err := getXattr(fd, x.Name); err == nil && string(cur) == string(x.Value) {
			continue
		}
		if unix.Fsetxattr(fd, x.Name, x.Value, 0) == nil {
			changed = true
		}
	}
	// What the new inode got from its folder (a default ACL's access ACL)
	// and the file it stands for did not hold goes, as a rename keeps the
	// file's own; security.* is the security module's to label.
	if names, err := listXattrs(fd); err == nil {
		for _, n := range names {
			if !want[n] && !strings.HasPrefix(n, "security.") && unix.Fremovexattr(fd, n) == nil {
				changed = true
			}
		}
	}
	return changed
}

// giveOwner gives f the owner uid and group gid, or the group alone when
// juju may not give the owner (a member may give a file to its group).
func giveOwner(f *os.File, uid, gid int) bool {
	now, err := f.Stat()
	if err != nil {
		return false
	}
	is, ok := now.Sys().(*syscall.Stat_t)
	if !ok || int(is.Uid) == uid && int(is.Gid) == gid {
		return false
	}
	if f.Chown(uid, gid) == nil {
		return true
	}
	return int(is.Gid) != gid && f.Chown(-1, gid) == nil
}

// createMode is the mode a file or folder made in the folder dir of root
// gets, asked for with base (0666 for a file, 0777 for a folder), as a
// shell's > and mkdir get it: less the umask juju started with, or, where
// the folder has a default ACL, which the kernel then applies instead of
// the umask, as that ACL allows. dir may not exist yet: the change makes
// it, and it inherits the default ACL of the nearest folder that does.
// Taking the umask alone made the ACL's mask the umask's group bits, so a
// group the ACL let write could not write what juju made.
func createMode(root *os.Root, dir string, base fs.FileMode) fs.FileMode {
	for cur := dir; ; cur = path.Dir(cur) {
		if m, ok := defaultACLMode(root, cur, base); ok {
			return m
		}
		if cur == "." || cur == "" {
			return base &^ startUmask
		}
	}
}

// defaultACLMode reports whether the folder dir of root exists, and the
// mode its default ACL gives a new entry asked for with base (base less
// the umask without one).
func defaultACLMode(root *os.Root, dir string, base fs.FileMode) (fs.FileMode, bool) {
	f, err := openFolder(root, dir)
	if err != nil {
		return 0, false
	}
	defer f.close()
	d, err := f.Open(".")
	if err != nil {
		return 0, false
	}
	defer d.Close()
	acl, err := getXattr(int(d.Fd()), "system.posix_acl_default")
	if err != nil || len(acl) < 4 || (len(acl)-4)%8 != 0 || bin.LittleEndian.Uint32(acl) != 2 {
		return base &^ startUmask, true
	}
	// The kernel's posix_acl_create_masq: the owner's, the class's (the
	// mask, or the owning group without one) and others' permissions.
	perm := map[uint16]fs.FileMode{}
	for e := acl[4:]; len(e) >= 8; e = e[8:] {
		perm[bin.LittleEndian.Uint16(e)] = fs.FileMode(bin.LittleEndian.Uint16(e[2:]) & 7)
	}
	const userObj, groupObj, mask, other = 0x01, 0x04, 0x10, 0x20
	class, ok := perm[mask]
	if !ok {
		class = perm[groupObj]
	}
	return base & (perm[userObj]<<6 | class<<3 | perm[other]), true
}
