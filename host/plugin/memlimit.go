package plugin

import (
	"math"
	"runtime/debug"
	"sync"
)

// The host's soft Go memory limit and GC percent, which compilations and
// loaded modules adjust.
//
// Compiling a plugin allocates a few hundred MB over a second or two. Under
// a soft Go memory limit (juju stdio sets one to keep its resident size
// down) the collector would run almost continuously meanwhile, making a cold
// compilation more than twice as slow. While any compilation runs, the
// limit is lifted and the heap may grow to compileGCPercent of the live
// heap between collections; the last one to finish puts both back.
//
// A loaded module stays in the Go heap for as long as it is loaded: wazero
// keeps a copy of its function bodies and data segments, about 1.3 bytes
// per byte of wasm. A fixed limit set for the core plugin alone would sit
// under the live heap of a host that loaded more (core-discover,
// core-image, installed plugins), and the collector would then run after
// every few allocations: with 58 MiB live under 64 MiB, a tiny read_file
// in process took 192–245 µs instead of 83–111 µs, a collection every 23
// calls (BenchmarkReadFileBesideLoadedModules, docs/RATIONALE.md). So the
// limit juju sets (SetSoftMemoryLimit) is a base plus keptPerWasmByte for
// each byte of wasm loaded now.
var memLimit struct {
	mu     sync.Mutex
	active int   // liftMemoryLimit holders
	saved  int64 // the memory limit to put back
	// gcActive counts the compilations holding the raised GC percent;
	// gcSaved is the percent to put back (SetGCPercent updates it while
	// they run).
	gcActive int
	gcSaved  int
	// soft: juju set the limit (SetSoftMemoryLimit), to base plus
	// keptPerWasmByte for each of the loaded bytes of wasm.
	soft   bool
	base   int64
	loaded int64
}

// keptPerWasmByte is the room a loaded module is given under the soft
// limit, per byte of its wasm: the copy wazero keeps (about 1.3 bytes per
// byte) and the collector's headroom over it at juju stdio's GC percent of
// 50.
const keptPerWasmByte = 2

// compileGCPercent is the heap's growth allowed between collections while
// a compilation runs: most of what a compilation allocates is garbage at
// once, and on 2 cores the collector competes with the compiler's workers.
// With Go's 100, a first call on an empty cache took 1389–1446 ms; with 400,
// 1321–1336 ms (same runs, alternating; docs/RATIONALE.md).
const compileGCPercent = 400

// SetSoftMemoryLimit sets the process's soft Go memory limit
// (debug.SetMemoryLimit) to base plus keptPerWasmByte for each byte of
// wasm of the modules loaded, and keeps it so as modules are loaded and
// closed. A negative base stops keeping it and leaves the limit in force
// as it is. Without it, the limit is left as it is (the owner's
// GOMEMLIMIT, say), and only lifted while a compilation runs.
func SetSoftMemoryLimit(base int64) {
	memLimit.mu.Lock()
	defer memLimit.mu.Unlock()
	memLimit.soft, memLimit.base = base >= 0, base
	applySoftLimit()
}

// moduleLoaded counts n bytes of wasm as loaded (negative: closed).
func moduleLoaded(n int64) {
	if n == 0 {
		return
	}
	memLimit.mu.Lock()
	defer memLimit.mu.Unlock()
	memLimit.loaded += n
	applySoftLimit()
}

// applySoftLimit puts juju's soft limit in force, or keeps it for when the
// last lift ends. memLimit.mu is held.
func applySoftLimit() {
	if !memLimit.soft {
		return
	}
	limit := memLimit.base + keptPerWasmByte*max(memLimit.loaded, 0)
	if memLimit.active > 0 {
		memLimit.saved = limit
		return
	}
	debug.SetMemoryLimit(limit)
}

// liftMemoryLimit lifts the soft memory limit until the returned function is
// called.
func liftMemoryLimit() (restore func()) {
	memLimit.mu.Lock()
	if memLimit.active == 0 {
		memLimit.saved = debug.SetMemoryLimit(math.MaxInt64)
	}
	memLimit.active++
	memLimit.mu.Unlock()
	return func() {
		memLimit.mu.Lock()
		defer memLimit.mu.Unlock()
		memLimit.active--
		if memLimit.active == 0 {
			debug.SetMemoryLimit(memLimit.saved)
		}
	}
}

// compiling sets the collector up for a compilation (liftMemoryLimit, and
// compileGCPercent unless the percent in force is higher or the collector
// is off) until the returned function is called.
func compiling() (restore func()) {
	lift := liftMemoryLimit()
	memLimit.mu.Lock()
	if memLimit.gcActive == 0 {
		memLimit.gcSaved = debug.SetGCPercent(compileGCPercent)
		if memLimit.gcSaved < 0 || memLimit.gcSaved >= compileGCPercent {
			debug.SetGCPercent(memLimit.gcSaved) // the owner's is kept
		}
	}
	memLimit.gcActive++
	memLimit.mu.Unlock()
	return func() {
		memLimit.mu.Lock()
		memLimit.gcActive--
		if memLimit.gcActive == 0 {
			debug.SetGCPercent(memLimit.gcSaved)
		}
		memLimit.mu.Unlock()
		lift()
	}
}

// SetGCPercent sets the collector's percent (debug.SetGCPercent) for the
// process; while compilations run, it is the percent they put back when
// the last one ends.
func SetGCPercent(percent int) {
	memLimit.mu.Lock()
	defer memLimit.mu.Unlock()
	if memLimit.gcActive > 0 {
		memLimit.gcSaved = percent
		return
	}
	debug.SetGCPercent(percent)
}
