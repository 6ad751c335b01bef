//go:build !linux

package sandbox

import (
	"fmt"
	"runtime"
)

// LandlockABI reports that Landlock, a Linux feature, is not available on
// this system. The error wraps ErrLandlockUnavailable.
func LandlockABI() (int, error) {
	return 0, fmt.Errorf("%w: Landlock is a Linux feature and this is %s", ErrLandlockUnavailable, runtime.GOOS)
}
