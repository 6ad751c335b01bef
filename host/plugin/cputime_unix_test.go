//go:build unix

package plugin_test

import "syscall"

// cpuTime is the CPU time this process has used (user and system), in
// nanoseconds. On a shared machine it varies far less than the wall clock:
// cpu-ns/op is the figure to compare between runs there.
func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
