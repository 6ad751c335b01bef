package sandbox

import (
	"fmt"

	"github.com/landlock-lsm/go-landlock/landlock"
)

// landlockConfigs are go-landlock's strict configurations by ABI version.
// None is in best-effort mode: a kernel that cannot enforce one is an
// error, never a silent no-op.
var landlockConfigs = []landlock.Config{landlock.V1, landlock.V1, landlock.V2, landlock.V3, landlock.V4, landlock.V5, landlock.V6, landlock.V7}

// restrictSelf applies the Landlock ruleset of p to the whole process.
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
	if p.Network {
		cfg.HandledAccessNet = 0 // the network stays open
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
	if err := cfg.Restrict(rules...); err != nil {
		return fmt.Errorf("landlock (ABI %d): %w", v, err)
	}
	return nil
}
