//go:build linux && (arm64 || riscv64 || loong64)

package fs

import "syscall"

// lstatNul is fstatat(dirfd, name, st, AT_SYMLINK_NOFOLLOW) for a name
// NUL-terminated.
func lstatNul(dirfd int, name []byte, st *syscall.Stat_t) error {
	if len(name) == 0 || name[len(name)-1] != 0 {
		return syscall.EINVAL
	}
	return syscall.Fstatat(dirfd, string(name[:len(name)-1]), st, atSymlinkNofollow)
}

// atSymlinkNofollow is AT_SYMLINK_NOFOLLOW, which syscall does not name.
const atSymlinkNofollow = 0x100
