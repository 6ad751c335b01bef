//go:build linux && (arm64 || riscv64 || loong64)

package statat

import "syscall"

// Lstat describes name in the folder dirfd without following it.
func Lstat(dirfd int, name string, st *syscall.Stat_t) error {
	return syscall.Fstatat(dirfd, name, st, atSymlinkNofollow)
}

// LstatNul is Lstat for a name NUL-terminated.
func LstatNul(dirfd int, name []byte, st *syscall.Stat_t) error {
	if len(name) == 0 || name[len(name)-1] != 0 {
		return syscall.EINVAL
	}
	return Lstat(dirfd, string(name[:len(name)-1]), st)
}
