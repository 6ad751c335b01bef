package exec

import (
	"os"
	"syscall"
)

// procAttr has nothing to add on Windows, where juju has no process groups
// to manage: a command's own children are not tracked.
func procAttr() *syscall.SysProcAttr { return nil }

// killGroup kills the process pid (Windows has no signals to send).
func killGroup(pid int, _ syscall.Signal) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}
