//go:build unix

package sandbox

import "golang.org/x/sys/unix"

// KernelRelease is the running kernel's release ("6.8.0-45-generic"), or ""
// when it cannot be read. Which sandbox works depends on it.
func KernelRelease() string {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return ""
	}
	return unix.ByteSliceToString(u.Release[:])
}
