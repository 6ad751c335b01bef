//go:build linux

package fs

import (
	"io/fs"
	"syscall"
)

// stampOf reads what a later stat compares to learn that the entry has
// not changed: its identity, size, mode and times. ok is false where the
// file system does not keep times a change moves (zero).
func stampOf(fi fs.FileInfo) (s stamp, ok bool) {
	st, _ := fi.Sys().(*syscall.Stat_t)
	if st == nil || st.Ctim.Nano() == 0 || st.Mtim.Nano() == 0 {
		return stamp{}, false
	}
	return stamp{dev: uint64(st.Dev), ino: st.Ino, size: st.Size, mode: st.Mode, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}, true
}
