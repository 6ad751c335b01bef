//go:build unix

package sandbox

import (
	"os"
	"syscall"
)

// trustedLike reports whether path may be trusted as much as ref: it is
// owned by ref's owner or by root, and neither its group nor others may
// write it. A regular file or a folder; a link is not followed.
func trustedLike(path, ref string) bool {
	fi, err := os.Lstat(path)
	if err != nil || !(fi.Mode().IsRegular() || fi.IsDir()) || fi.Mode().Perm()&0o022 != 0 {
		return false
	}
	ri, err := os.Stat(ref)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	rst, rok := ri.Sys().(*syscall.Stat_t)
	return ok && rok && (st.Uid == rst.Uid || st.Uid == 0)
}
