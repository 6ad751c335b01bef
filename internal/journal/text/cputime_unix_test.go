//go:build unix

package text

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system time so far: on a shared
// machine a benchmark's wall time says more about the neighbours.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
