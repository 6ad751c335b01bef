package journal

import (
	"os"
	"syscall"
)

// datasync flushes a file's data and the metadata needed to read it back:
// fdatasync, which skips the timestamps a plain fsync would also write.
func datasync(f *os.File) error {
	for {
		err := syscall.Fdatasync(int(f.Fd()))
		if err != syscall.EINTR {
			return err
		}
	}
}

// syncDirFile makes a folder's entries (a rename into it) durable.
func syncDirFile(d *os.File) error { return d.Sync() }
