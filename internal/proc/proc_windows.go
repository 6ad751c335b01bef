package proc

import (
	"os"
	"syscall"
)

// Attr has nothing to add on Windows, where juju has no process groups to
// manage: a child's own children are not tracked.
func Attr() *syscall.SysProcAttr { return nil }

// KillGroup kills the process pid (Windows has no process groups here).
func KillGroup(pid int) { Signal(pid, syscall.SIGKILL) }

// Signal kills the process pid: Windows has no signals to send.
func Signal(pid int, _ syscall.Signal) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}

// Alive reports whether a process pid exists.
func Alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
