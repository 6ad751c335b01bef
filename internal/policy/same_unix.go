//go:build unix

package policy

import (
	"io/fs"
	"syscall"
)

// SameFile reports whether a and b describe the same file, as os.SameFile
// does, for the policy's own FileInfo values too (Resolved.Info and what
// OpenStat and OpenRead return may come from a descriptor's stat).
func SameFile(a, b fs.FileInfo) bool {
	if a == nil || b == nil {
		return false
	}
	sa, ok1 := a.Sys().(*syscall.Stat_t)
	sb, ok2 := b.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && sa.Dev == sb.Dev && sa.Ino == sb.Ino
}
