//go:build unix

package proc

import "syscall"

// KillGroup kills the process group led by pid.
func KillGroup(pid int) { Signal(pid, syscall.SIGKILL) }

// Signal sends sig to the process group led by pid.
func Signal(pid int, sig syscall.Signal) { syscall.Kill(-pid, sig) }
