//go:build unix

package proc

import (
	"os"
	"runtime"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

var inheritedOnce sync.Once

// CloseInheritedOnExec marks every descriptor this process holds past
// stderr close-on-exec, once: those it inherited from whatever started it
// without that flag, which every program it starts (a command, in or out
// of the sandbox) would otherwise inherit in turn. Go opens its own
// descriptors close-on-exec and hands a child only those it names
// (exec.Cmd's Stdin, Stdout, Stderr and ExtraFiles), so nothing of juju's
// own is lost. A folder's descriptor that reached a sandboxed command
// would let it write outside the roots through /proc/self/fd/N where
// Landlock does not stop it; a pipe's or socket's, talk to what holds its
// other end.
func CloseInheritedOnExec() {
	inheritedOnce.Do(func() {
		if closeRangeOnExec() {
			return
		}
		// Before Linux 5.11, and elsewhere: each open descriptor in turn.
		dir := "/dev/fd"
		if runtime.GOOS == "linux" {
			dir = "/proc/self/fd"
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
				unix.CloseOnExec(fd)
			}
		}
	})
}
