package sandbox

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/landlock-lsm/go-landlock/landlock"
)

// landlockConfigs are go-landlock's strict configurations by ABI version.
// None is in best-effort mode: a kernel that cannot enforce one is an
// error, never a silent no-op.
var landlockConfigs = []landlock.Config{landlock.V1, landlock.V1, landlock.V2, landlock.V3, landlock.V4, landlock.V5, landlock.V6, landlock.V7}

// restrictSelf applies the Landlock ruleset of p to the calling thread,
// which the caller has locked (runtime.LockOSThread) and execs from.
// want is the ABI the server saw; a kernel offering less fails.
func restrictSelf(want int, p Policy) error {
	have, err := LandlockABI()
	if err != nil {
		return err
	}
	if have < want {
		return fmt.Errorf("%w: the kernel offers Landlock ABI %d, the server expected %d", ErrLandlockUnavailable, have, want)
	}
	v := min(want, len(landlockConfigs)-1)
	cfg := landlockConfigs[v]
	if p.Network || p.loopback {
		// The network stays open; or the command's namespace is proven
		// private, the loopback alone (privateLoopback), and confines it.
		cfg.HandledAccessNet = 0
	}
	rules := []landlock.Rule{
		landlock.RODirs("/"),
		landlock.RWDirs("/dev", "/tmp").IgnoreIfMissing(),
	}
	if v >= 5 {
		rules[1] = landlock.RWDirs("/dev", "/tmp").WithIoctlDev().IgnoreIfMissing()
	}
	if len(p.Write) > 0 {
		rw := landlock.RWDirs(p.Write...).IgnoreIfMissing()
		if v >= 2 {
			rw = rw.WithRefer()
		}
		rules = append(rules, rw)
	}
	// Only this thread is restricted, not the whole process: the helper
	// execs the command from this very thread next (HelperMain locks it),
	// and execve keeps the calling thread's Landlock domain. This avoids
	// stopping every thread of the Go runtime to restrict them all.
	fd, flags, err := cfg.NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("landlock (ABI %d): %w", v, err)
	}
	if fd < 0 {
		return fmt.Errorf("%w: the ruleset restricts nothing", ErrLandlockUnavailable)
	}
	defer unix.Close(fd)
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(fd), uintptr(flags), 0); errno != 0 {
		return fmt.Errorf("landlock_restrict_self (ABI %d): %w", v, errno)
	}
	return nil
}
