package host

import (
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/sdk/abi"
)

// The gate's table (SPEC §5): who waits for the owner in each trust mode.
func TestNeedsApproval(t *testing.T) {
	want := map[config.Mode]map[string]bool{
		config.ModeInspect: {abi.TierRead: false, abi.TierEdit: true, abi.TierExec: true, "?": true},
		config.ModeEdit:    {abi.TierRead: false, abi.TierEdit: false, abi.TierExec: true, "?": true},
		config.ModeTrusted: {abi.TierRead: false, abi.TierEdit: false, abi.TierExec: false, "?": false},
		"bogus":            {abi.TierRead: false, abi.TierEdit: true, abi.TierExec: true, "?": true},
	}
	for mode, tiers := range want {
		for tier, need := range tiers {
			if got := NeedsApproval(mode, tier); got != need {
				t.Errorf("NeedsApproval(%s, %s) = %v, want %v", mode, tier, got, need)
			}
		}
	}
}

// Call ids are short, unique and sort in the order they were made.
func TestCallIDs(t *testing.T) {
	prev := ""
	seen := map[string]bool{}
	for range 10000 {
		id := newCallID()
		if len(id) != 15 || strings.Trim(id, "0123456789abcdefghijklmnopqrstuvwxyz") != "" {
			t.Fatalf("id %q", id)
		}
		if seen[id] {
			t.Fatalf("id %q repeated", id)
		}
		seen[id] = true
		if id[:11] <= prev {
			t.Fatalf("id %q does not sort after %q", id, prev)
		}
		prev = id[:11]
	}
}
