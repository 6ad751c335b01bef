//go:build unix

package sandbox

import (
	"errors"
	"fmt"
	"syscall"
)

// serverAlive checks the pipe at fd, whose write end only juju holds and
// never writes to: juju runs while a read would block, and is gone once
// the pipe is at its end. The descriptor is then closed, so the command
// does not inherit it.
func serverAlive(fd int) error {
	defer syscall.Close(fd)
	if err := syscall.SetNonblock(fd, true); err != nil {
		return fmt.Errorf("the descriptor of juju's lifeline (%d): %w", fd, err)
	}
	var b [1]byte
	for {
		n, err := syscall.Read(fd, b[:])
		switch {
		case errors.Is(err, syscall.EAGAIN):
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return fmt.Errorf("reading juju's lifeline (%d): %w", fd, err)
		case n == 0:
			return errors.New("juju is no longer running")
		}
		return errors.New("juju's lifeline carried data; it must stay silent")
	}
}
