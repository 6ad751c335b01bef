package statat

import (
	"syscall"
	"unsafe"
)

// Lstat describes name in the folder dirfd without following it.
func Lstat(dirfd int, name string, st *syscall.Stat_t) error {
	p, err := syscall.BytePtrFromString(name)
	if err != nil {
		return err
	}
	return lstat(dirfd, p, st)
}

// LstatNul is Lstat for a name already NUL-terminated, which it does not
// copy (syscall's own wrapper copies every name into a new one).
func LstatNul(dirfd int, name []byte, st *syscall.Stat_t) error {
	if len(name) == 0 || name[len(name)-1] != 0 {
		return syscall.EINVAL
	}
	return lstat(dirfd, &name[0], st)
}

func lstat(dirfd int, name *byte, st *syscall.Stat_t) error {
	_, _, errno := syscall.Syscall6(syscall.SYS_NEWFSTATAT, uintptr(dirfd), uintptr(unsafe.Pointer(name)), uintptr(unsafe.Pointer(st)), atSymlinkNofollow, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
