//go:build !linux

package sandbox

import (
	"fmt"
	"io"
	"syscall"
)

// ReaperFlag makes juju-sandbox the reaper, on Linux only.
const ReaperFlag = "--reap"

// ReaperAttr is nil: PID namespaces are Linux's.
func ReaperAttr() *syscall.SysProcAttr { return nil }

// ReaperArgs is unused where there is no reaper.
func ReaperArgs(int, string, []string) []string { return nil }

// ReaperMain refuses: PID namespaces are Linux's.
func ReaperMain(_ []string, stderr io.Writer) int {
	fmt.Fprintf(stderr, "juju-sandbox %s: only on Linux\n", ReaperFlag)
	return 2
}
