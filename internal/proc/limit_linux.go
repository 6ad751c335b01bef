package proc

import "golang.org/x/sys/unix"

// LimitData caps the data memory (RLIMIT_DATA: its heap and other private
// writable mappings, not the files it maps) of the running process pid,
// a child juju started, at max bytes: past it, an allocation fails and the
// child ends. os/exec cannot set a limit before the program starts, so it
// is set just after; a backstop against a child's growth on large input,
// not a bound on its first instants.
func LimitData(pid int, max uint64) error {
	return unix.Prlimit(pid, unix.RLIMIT_DATA, &unix.Rlimit{Cur: max, Max: max}, nil)
}
