//go:build unix

package journal

import "syscall"

// syscallNonblock keeps an open from blocking on a FIFO swapped in.
const syscallNonblock = syscall.O_NONBLOCK
