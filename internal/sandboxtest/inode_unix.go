//go:build unix

package sandboxtest

import (
	"io/fs"
	"strconv"
	"syscall"
)

// inode is fi's inode number.
func inode(fi fs.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return strconv.FormatUint(uint64(st.Ino), 10)
	}
	return "?"
}
