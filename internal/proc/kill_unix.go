//go:build unix

package proc

import "syscall"

// KillGroup kills the process group led by pid.
func KillGroup(pid int) { Signal(pid, syscall.SIGKILL) }

// Signal sends sig to the process group led by pid.
func Signal(pid int, sig syscall.Signal) { syscall.Kill(-pid, sig) }

// Alive reports whether a process pid exists (ended and not yet reaped
// counts).
func Alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
