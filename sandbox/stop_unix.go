//go:build unix

package sandbox

import (
	"syscall"

	"github.com/jujutools/juju/internal/proc"
)

// Interrupt asks the command of a bubblewrap sandbox to stop: SIGTERM to
// its process group inside the sandbox, never to bubblewrap itself. pid is
// the bubblewrap juju started, or the reaper it runs under (still
// running). Its child is the PID
// namespace's init, which takes a session of its own (--new-session) just
// before it starts the command in it, and which the signal does not reach
// (an init ignores signals from outside it has no handler for).
//
// Bubblewrap must not be signalled first: killed while it sets the
// sandbox up, it dies before its child asked to die with it
// (--die-with-parent is set only once the setup is done), and the child
// goes on, out of the job's process group, to run the command. That is
// how a cancelled job's sandbox outlived juju. Interrupt reports false
// when no command has started yet: the caller then kills the whole tree
// at once (proc.KillTree), which reaches the child while bubblewrap, its
// parent, is still there.
func Interrupt(pid int) bool {
	return interruptBelow(pid, 3)
}

// interruptBelow signals the process group of each descendant of pid, up
// to depth levels down, that leads its own group, looking under those that
// do not: under the reaper, bubblewrap is a grandchild of the job.
func interruptBelow(pid, depth int) bool {
	sent := false
	for _, c := range proc.Children(pid) {
		if pg, err := syscall.Getpgid(c); err == nil && pg == c {
			sent = syscall.Kill(-c, syscall.SIGTERM) == nil || sent
		} else if depth > 1 {
			sent = interruptBelow(c, depth-1) || sent
		}
	}
	return sent
}
