package install

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the folders a and b in one step (renameat2 with
// RENAME_EXCHANGE), so that no moment has neither in place. It answers
// errNoExchange where the file system or the kernel cannot.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.EPERM) {
		return errNoExchange
	}
	return err
}
