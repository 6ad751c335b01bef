//go:build !linux

package sandbox

import (
	"fmt"
	"io"
)

// refuseSetID has nothing to do where the helper does not run (it runs
// inside bubblewrap, on Linux).
func refuseSetID() error { return nil }

// execBubblewrap is Linux's; bubblewrap runs nowhere else.
func execBubblewrap(argv []string, stderr io.Writer) int {
	fmt.Fprintf(stderr, "juju %s: %s: bubblewrap runs on Linux only\n", HelperCommand, BubblewrapFlag)
	return HelperExitCode
}
