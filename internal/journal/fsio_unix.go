//go:build unix

package journal

import (
	"os"
	"syscall"
)

// syscallNonblock keeps an open from blocking on a FIFO swapped in.
const syscallNonblock = syscall.O_NONBLOCK

// datasync flushes a file's data and the metadata needed to read it back
// (fdatasync where the system has it).
func datasync(f *os.File) error {
	for {
		err := syscall.Fdatasync(int(f.Fd()))
		if err != syscall.EINTR {
			return err
		}
	}
}
