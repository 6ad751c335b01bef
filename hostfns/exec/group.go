package exec

import "syscall"

// GroupAttr is the SysProcAttr juju gives every child it starts and owns
// beyond one call (commands, language servers): its own session and
// process group, and, on Linux, death with juju.
func GroupAttr() *syscall.SysProcAttr { return procAttr() }

// KillGroup kills the process group led by pid: the child and everything it
// started that stayed in its group.
func KillGroup(pid int) { killGroup(pid, syscall.SIGKILL) }
