//go:build !unix

// Package filelock takes exclusive locks on files; where flock is not
// available it takes none, and concurrent updates are not serialised.
package filelock

import (
	"context"
	"errors"
)

// Lock is a no-op where flock is not available.
func Lock(string) (func(), error) { return func() {}, nil }

// LockContext is a no-op where flock is not available.
func LockContext(context.Context, string, func()) (func(), error) { return func() {}, nil }

// ErrHeld: the lock TryLock asked for is held, or, here, cannot be known.
var ErrHeld = errors.New("the lock is held")

// TryLock cannot tell a held lock here: it answers ErrHeld.
func TryLock(string) (func(), error) { return nil, ErrHeld }
