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

// The limit juju keeps is its base plus keptPerWasmByte for each byte of
// wasm loaded; a module loaded or closed while a compilation has lifted the
// limit counts once the lift ends; without SetSoftMemoryLimit (an owner's
// GOMEMLIMIT) loading leaves the limit alone.
func TestSoftMemoryLimitFollowsTheLoadedModules(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	memLimit.mu.Lock()
	saved := memLimit.loaded
	memLimit.loaded = 0
	memLimit.mu.Unlock()
	defer func() {
		memLimit.mu.Lock()
		memLimit.soft, memLimit.loaded = false, memLimit.loaded+saved
		memLimit.mu.Unlock()
	}()
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	const base, mib = 64 << 20, 1 << 20

	debug.SetMemoryLimit(1 << 30) // the owner's
	moduleLoaded(6 * mib)
	if got := limit(); got != 1<<30 {
		t.Fatalf("a load changed a limit juju does not keep: %d", got)
	}

	SetSoftMemoryLimit(base)
	if got, want := limit(), int64(base+keptPerWasmByte*6*mib); got != want {
		t.Fatalf("limit with 6 MiB of wasm loaded = %d, want %d", got, want)
	}
	moduleLoaded(7 * mib)
	if got, want := limit(), int64(base+keptPerWasmByte*13*mib); got != want {
		t.Fatalf("limit after a second module = %d, want %d", got, want)
	}

	restore := compiling()
	moduleLoaded(-6 * mib) // closed while another compiles
	moduleLoaded(5 * mib)  // the compilation's own module
	if got := limit(); got != math.MaxInt64 {
		t.Fatalf("a load put the limit back during a compilation: %d", got)
	}
	restore()
	if got, want := limit(), int64(base+keptPerWasmByte*12*mib); got != want {
		t.Fatalf("limit after the compilation = %d, want %d", got, want)
	}

	moduleLoaded(-12 * mib)
	if got := limit(); got != base {
		t.Fatalf("limit with nothing loaded = %d, want the base %d", got, base)
	}
}
