//go:build unix

package exec

import "syscall"

// killGroup sends sig to the process group led by pid.
func killGroup(pid int, sig syscall.Signal) { syscall.Kill(-pid, sig) }
