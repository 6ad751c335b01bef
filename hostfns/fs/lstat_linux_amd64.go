package fs

import (
	"syscall"
	"unsafe"
)

// lstatNul is fstatat(dirfd, name, st, AT_SYMLINK_NOFOLLOW) for a name
// already NUL-terminated: syscall's own copies each name into a new one.
func lstatNul(dirfd int, name []byte, st *syscall.Stat_t) error {
	if len(name) == 0 || name[len(name)-1] != 0 {
		return syscall.EINVAL
	}
	_, _, errno := syscall.Syscall6(syscall.SYS_NEWFSTATAT, uintptr(dirfd), uintptr(unsafe.Pointer(&name[0])), uintptr(unsafe.Pointer(st)), atSymlinkNofollow, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// atSymlinkNofollow is AT_SYMLINK_NOFOLLOW, which syscall does not name.
const atSymlinkNofollow = 0x100
