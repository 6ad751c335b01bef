package journal

import (
	"errors"
	"os"
	"syscall"
)

// allocate gives f real blocks from from to end, holes included
// (fallocate), growing it to end when it is shorter. A file system without fallocate
// has its blocks written as zeros instead.
func allocate(f *os.File, from, end int64) error {
	for {
		err := syscall.Fallocate(int(f.Fd()), 0, from, end-from)
		switch {
		case err == syscall.EINTR:
			continue
		case errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOSYS):
			return writeZeros(f, from, end)
		}
		return err
	}
}
