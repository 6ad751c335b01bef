//go:build !linux

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// ReaperFlag makes juju-sandbox the reaper, on Linux only.
const ReaperFlag = "--reap"

// ReaperAttr is nil: PID namespaces are Linux's.
func ReaperAttr() *syscall.SysProcAttr { return nil }

// ReaperArgs is unused where there is no reaper.
func ReaperArgs(int, string, []string) []string { return nil }

// StandbyArgs is unused where there is no reaper.
func StandbyArgs() []string { return nil }

// OrderSocket refuses: there is no standby reaper to hand an order to.
func OrderSocket() (juju, reaper *os.File, err error) {
	return nil, nil, errors.New("no reaper on this system")
}

// HandOrder refuses: there is no standby reaper to hand an order to.
func HandOrder(*os.File, string, []string, []string, string, *os.File, *os.File, []*os.File) error {
	return errors.New("no reaper on this system")
}

// ReaperMain refuses: PID namespaces are Linux's.
func ReaperMain(_ []string, stderr io.Writer) int {
	fmt.Fprintf(stderr, "juju-sandbox %s: only on Linux\n", ReaperFlag)
	return 2
}

// awaitOrder refuses: a sandbox is built ahead of its command on Linux
// only.
func awaitOrder(int) ([]string, error) {
	return nil, errors.New("a sandbox waits for its command on Linux only")
}
