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

// A compilation raises the GC percent as well, puts back the last one in
// force (set meanwhile through SetGCPercent included) when the last
// compilation ends, and never lowers the owner's higher percent or turns
// the collector on.
func TestCompilingRaisesTheGCPercent(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	a := compiling()
	b := compiling()
	if got := debug.SetGCPercent(compileGCPercent); got != compileGCPercent {
		t.Fatalf("percent during compilation = %d", got)
	}
	SetGCPercent(50) // juju stdio's, set while a compilation runs
	if got := debug.SetGCPercent(compileGCPercent); got != compileGCPercent {
		t.Fatalf("SetGCPercent lowered the percent during a compilation: %d", got)
	}
	a()
	if got := debug.SetGCPercent(compileGCPercent); got != compileGCPercent {
		t.Fatalf("percent put back while a compilation still runs: %d", got)
	}
	b()
	if got := debug.SetGCPercent(100); got != 50 {
		t.Fatalf("percent after the compilations = %d, want 50", got)
	}
	for _, owner := range []int{-1, 800} {
		debug.SetGCPercent(owner)
		restore := compiling()
		if got := debug.SetGCPercent(owner); got != owner {
			t.Errorf("the owner's %d became %d during a compilation", owner, got)
		}
		restore()
		if got := debug.SetGCPercent(100); got != owner {
			t.Errorf("the owner's %d became %d after a compilation", owner, got)
		}
	}
	SetGCPercent(70)
	if got := debug.SetGCPercent(100); got != 70 {
		t.Errorf("SetGCPercent outside a compilation: %d", got)
	}
}
