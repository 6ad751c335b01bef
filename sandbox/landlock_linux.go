package sandbox

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// LandlockABI asks the kernel for its Landlock ABI version with
// landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION). An
// error, wrapping ErrLandlockUnavailable, says why Landlock cannot be used.
func LandlockABI() (int, error) {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	switch errno {
	case 0:
		if int(v) < 1 {
			return 0, fmt.Errorf("%w: the kernel reported ABI %d", ErrLandlockUnavailable, int(v))
		}
		return int(v), nil
	case unix.ENOSYS:
		return 0, fmt.Errorf("%w: this kernel has no Landlock (it needs Linux 5.13 or later built with CONFIG_SECURITY_LANDLOCK)", ErrLandlockUnavailable)
	case unix.EOPNOTSUPP:
		return 0, fmt.Errorf("%w: Landlock is built into this kernel but not enabled (add landlock to the lsm= boot parameter)", ErrLandlockUnavailable)
	default:
		return 0, fmt.Errorf("%w: landlock_create_ruleset: %v", ErrLandlockUnavailable, errno)
	}
}
