package main

import (
	"math"
	"os"
	"runtime/debug"
	"testing"
)

// juju stdio collects at half the live heap's growth and under a soft
// memory limit, unless the owner set GOGC or GOMEMLIMIT.
func TestCollectorSettingsYieldToTheOwner(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	for _, name := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Setenv(name, "")
		os.Unsetenv(name)
	}
	gcPercent(stdioGCPercent)
	softMemoryLimit(stdioMemoryLimit)
	if p := debug.SetGCPercent(100); p != stdioGCPercent {
		t.Errorf("GC percent %d, want %d", p, stdioGCPercent)
	}
	if l := debug.SetMemoryLimit(math.MaxInt64); l != stdioMemoryLimit {
		t.Errorf("memory limit %d, want %d", l, stdioMemoryLimit)
	}

	t.Setenv("GOGC", "100")
	t.Setenv("GOMEMLIMIT", "1GiB")
	gcPercent(stdioGCPercent)
	softMemoryLimit(stdioMemoryLimit)
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GOGC=100 set, yet the GC percent is %d", p)
	}
	if l := debug.SetMemoryLimit(math.MaxInt64); l != math.MaxInt64 {
		t.Errorf("GOMEMLIMIT set, yet the memory limit is %d", l)
	}
}
