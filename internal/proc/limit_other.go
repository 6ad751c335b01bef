//go:build !linux

package proc

// LimitData does nothing where juju cannot set another process's limits
// (prlimit is Linux's): the child runs with juju's own.
func LimitData(pid int, max uint64) error { return nil }
