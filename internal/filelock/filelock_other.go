//go:build !unix

// Package filelock takes exclusive locks on files; where flock is not
// available it takes none, and concurrent updates are not serialised.
package filelock

// Lock is a no-op where flock is not available.
func Lock(string) (func(), error) { return func() {}, nil }
