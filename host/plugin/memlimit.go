package plugin

import (
	"math"
	"runtime/debug"
	"sync"
)

// Compiling a plugin allocates a few hundred MB over a second or two. Under
// a soft Go memory limit (juju stdio sets one to keep its resident size
// down) the collector would run almost continuously meanwhile, making a cold
// compilation more than twice as slow. While any compilation runs, the
// limit is lifted and the heap may grow to compileGCPercent of the live
// heap between collections; the last one to finish puts both back.
var compileLimit struct {
	mu     sync.Mutex
	active int   // liftMemoryLimit holders
	saved  int64 // the memory limit to put back
	// gcActive counts the compilations holding the raised GC percent;
	// gcSaved is the percent to put back (SetGCPercent updates it while
	// they run).
	gcActive int
	gcSaved  int
}

// compileGCPercent is the heap's growth allowed between collections while
// a compilation runs: most of what a compilation allocates is garbage at
// once, and on 2 cores the collector competes with the compiler's workers.
// With Go's 100, a first call on an empty cache took 1389–1446 ms; with 400,
// 1321–1336 ms (same runs, alternating; docs/RATIONALE.md).
const compileGCPercent = 400

// liftMemoryLimit lifts the soft memory limit until the returned function is
// called.
func liftMemoryLimit() (restore func()) {
	compileLimit.mu.Lock()
	if compileLimit.active == 0 {
		compileLimit.saved = debug.SetMemoryLimit(math.MaxInt64)
	}
	compileLimit.active++
	compileLimit.mu.Unlock()
	return func() {
		compileLimit.mu.Lock()
		defer compileLimit.mu.Unlock()
		compileLimit.active--
		if compileLimit.active == 0 {
			debug.SetMemoryLimit(compileLimit.saved)
		}
	}
}

// compiling sets the collector up for a compilation (liftMemoryLimit, and
// compileGCPercent unless the percent in force is higher or the collector
// is off) until the returned function is called.
func compiling() (restore func()) {
	lift := liftMemoryLimit()
	compileLimit.mu.Lock()
	if compileLimit.gcActive == 0 {
		compileLimit.gcSaved = debug.SetGCPercent(compileGCPercent)
		if compileLimit.gcSaved < 0 || compileLimit.gcSaved >= compileGCPercent {
			debug.SetGCPercent(compileLimit.gcSaved) // the owner's is kept
		}
	}
	compileLimit.gcActive++
	compileLimit.mu.Unlock()
	return func() {
		compileLimit.mu.Lock()
		compileLimit.gcActive--
		if compileLimit.gcActive == 0 {
			debug.SetGCPercent(compileLimit.gcSaved)
		}
		compileLimit.mu.Unlock()
		lift()
	}
}

// SetGCPercent sets the collector's percent (debug.SetGCPercent) for the
// process; while compilations run, it is the percent they put back when
// the last one ends.
func SetGCPercent(percent int) {
	compileLimit.mu.Lock()
	defer compileLimit.mu.Unlock()
	if compileLimit.gcActive > 0 {
		compileLimit.gcSaved = percent
		return
	}
	debug.SetGCPercent(percent)
}
