package proc

import "syscall"

// Attr puts a child in its own session and process group. If juju dies
// without closing (SIGKILL), the child dies too: Linux sends Pdeathsig when
// the thread that started the child exits, and the Go runtime ends a thread
// only when a goroutine locked to it returns, which nothing in juju does.
func Attr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}
