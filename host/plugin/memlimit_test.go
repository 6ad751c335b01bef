package plugin

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestLiftMemoryLimitNests(t *testing.T) {
	old := debug.SetMemoryLimit(64 << 20)
	defer debug.SetMemoryLimit(old)
	a := liftMemoryLimit()
	b := liftMemoryLimit()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Fatalf("limit during compilation = %d", got)
	}
	a()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Fatalf("limit put back while a compilation still runs: %d", got)
	}
	b()
	if got := debug.SetMemoryLimit(-1); got != 64<<20 {
		t.Fatalf("limit not restored: %d", got)
	}
}
