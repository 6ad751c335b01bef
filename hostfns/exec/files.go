package exec

import (
	"os"
	"syscall"
)

// openFile opens a job's log, or /dev/null, as a plain blocking file.
// os.OpenFile offers every file it opens to the runtime's poller, which
// refuses a regular file or a device after four system calls spent
// asking (fcntl, epoll_ctl, fcntl, fcntl); a command's start opens
// three such files and reads two back, and on a virtual machine where a
// system call costs tens of microseconds those twenty calls were a
// visible part of an unsandboxed `echo`. Reads and writes through the
// returned file are direct system calls, as they were.
func openFile(path string, flag int, perm uint32) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, flag|syscall.O_CLOEXEC, perm)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}
