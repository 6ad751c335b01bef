//go:build unix && !linux

package exec

import "syscall"

// procAttr puts a command in its own session and process group.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}
