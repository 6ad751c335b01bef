package exec

import "syscall"

// procAttr puts a command in its own session and process group. If juju
// dies without closing the host (SIGKILL), the command dies too: Linux
// sends Pdeathsig when the thread that started the child exits, and the Go
// runtime ends a thread only when a goroutine locked to it returns, which
// nothing in the server does.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}
