//go:build !unix

package exec

import (
	"errors"
	"os"
	"time"
)

// source is what a path bubblewrap binds was; there is no bubblewrap here.
type source struct{}

// bindSources has nothing to look at where no sandbox is built ahead.
func bindSources([]string) []source { return nil }

// awaitReady refuses: no sandbox is built ahead here.
func awaitReady(*os.File, time.Duration) error {
	return errors.New("no sandbox is built ahead on this system")
}

// diskSize is what a log takes on the disk: its size here.
func diskSize(fi os.FileInfo) int64 { return fi.Size() }
