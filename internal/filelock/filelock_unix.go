//go:build unix

// Package filelock takes exclusive locks on files, so that two juju
// processes (a running server and a command of the owner's, two plugin
// commands) never interleave their updates of one store.
package filelock

import (
	"errors"
	"os"
	"syscall"
)

// Lock takes an exclusive lock on path, created 0600 if missing, waiting
// for its holder; the returned function releases it.
func Lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// ErrHeld: the lock TryLock asked for is held.
var ErrHeld = errors.New("the lock is held")

// TryLock takes an exclusive lock on path, which must exist, without
// waiting: ErrHeld when another holds it, an error for which os.IsNotExist
// is true when path is missing. The returned function releases it.
func TryLock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrHeld
		}
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
