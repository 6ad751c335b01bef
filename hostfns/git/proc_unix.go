//go:build unix

package git

import (
	"os/exec"
	"syscall"
)

// isolate runs git in its own session and process group, killed as a
// group when the call's time runs out.
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
