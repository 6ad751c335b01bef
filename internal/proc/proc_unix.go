//go:build unix && !linux

package proc

import "syscall"

// Attr puts a child in its own session and process group.
func Attr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
