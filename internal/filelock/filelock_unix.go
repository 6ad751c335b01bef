//go:build unix

// Package filelock takes exclusive locks on files, so that two juju
// processes (a running server and a command of the owner's, two plugin
// commands) never interleave their updates of one store.
package filelock

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
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
	return unlocker(f), nil
}

// pollEvery is how often LockContext tries a held lock again: the owner
// waiting at a terminal sees no delay in a tenth of a second, and ten
// non-blocking flock calls a second cost nothing.
const pollEvery = 100 * time.Millisecond

// LockContext is Lock for a command the owner waits on: when the lock is
// held it calls waiting once (to say so), then tries again every pollEvery
// until it gets the lock or ctx ends (Ctrl-C), whose error it returns.
func LockContext(ctx context.Context, path string, waiting func()) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	for first := true; ; first = false {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return unlocker(f), nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, err
		}
		if first && waiting != nil {
			waiting()
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(pollEvery):
		}
	}
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
	return unlocker(f), nil
}

func unlocker(f *os.File) func() {
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}
