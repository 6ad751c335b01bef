package proc

import (
	"math"

	"golang.org/x/sys/unix"
)

// closeRangeOnExec marks every descriptor past stderr close-on-exec in
// one call (Linux 5.11 on), reporting whether it could.
func closeRangeOnExec() bool {
	return unix.CloseRange(3, math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC) == nil
}
