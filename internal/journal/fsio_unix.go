//go:build unix

package journal

import (
	"io/fs"
	"os"
	"syscall"
)

// startUmask is the process's umask at start, read by setting it and
// putting it back while the packages initialise, before any goroutine of
// juju's makes a file.
var startUmask = func() fs.FileMode {
	m := syscall.Umask(0o22)
	syscall.Umask(m)
	return fs.FileMode(m) & fs.ModePerm
}()

// syscallNonblock keeps an open from blocking on a FIFO swapped in.
const syscallNonblock = syscall.O_NONBLOCK

// keepOwner gives f, the new file that will replace name in dir, name's
// owner and group, as far as juju may: a file is replaced, never written
// in place, so its new inode would otherwise belong to juju's user (root,
// when juju runs as root). Without the right to give the owner, the group
// alone is tried (a member may give a file to its group). It reports
// whether f's owner or group changed, which drops setuid and setgid.
// On Linux, applyMeta does this and keeps extended attributes too.
func keepOwner(dir *os.Root, name string, f *os.File) bool {
	old, err := dir.Lstat(name)
	if err != nil || !old.Mode().IsRegular() {
		return false
	}
	was, ok1 := old.Sys().(*syscall.Stat_t)
	now, err := f.Stat()
	if err != nil || !ok1 {
		return false
	}
	is, ok2 := now.Sys().(*syscall.Stat_t)
	if !ok2 || was.Uid == is.Uid && was.Gid == is.Gid {
		return false
	}
	if f.Chown(int(was.Uid), int(was.Gid)) == nil {
		return true
	}
	return was.Gid != is.Gid && f.Chown(-1, int(was.Gid)) == nil
}

// fileID names the file of fi on its device: two names of one file (hard
// links) have the same.
func fileID(fi fs.FileInfo) [2]uint64 {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return [2]uint64{}
	}
	return [2]uint64{uint64(st.Dev), uint64(st.Ino)}
}

// otherLinks is how many names besides the one it was found under the file
// of fi has.
func otherLinks(fi fs.FileInfo) int {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Nlink <= 1 {
		return 0
	}
	return int(st.Nlink) - 1
}
