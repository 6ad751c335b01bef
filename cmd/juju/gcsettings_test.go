package main

import (
	"math"
	"os"
	"runtime/debug"
	"testing"

	"github.com/jujutools/juju/host/plugin"
)

// juju stdio collects at half the live heap's growth and under a soft
// memory limit, unless the owner set GOGC or GOMEMLIMIT.
func TestCollectorSettingsYieldToTheOwner(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	defer plugin.SetSoftMemoryLimit(-1) // later tests' loads leave the limit alone
	for _, name := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Setenv(name, "")
		os.Unsetenv(name)
	}
	gcPercent(stdioGCPercent)
	softMemoryLimit(stdioMemoryLimit)
	if p := debug.SetGCPercent(100); p != stdioGCPercent {
		t.Errorf("GC percent %d, want %d", p, stdioGCPercent)
	}
	// The limit is the base plus what the modules loaded in this process
	// (by other tests) add (host/plugin's tests check that part).
	stdio := debug.SetMemoryLimit(-1)
	if stdio < stdioMemoryLimit {
		t.Errorf("memory limit %d, under the base %d", stdio, stdioMemoryLimit)
	}
	softMemoryLimit(serveMemoryLimit)
	if serve := debug.SetMemoryLimit(math.MaxInt64); serve-stdio != serveMemoryLimit-stdioMemoryLimit {
		t.Errorf("memory limit %d with serve's base, %d with stdio's: they differ by more than the bases", serve, stdio)
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
