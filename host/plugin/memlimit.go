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
// limit is lifted; the last one to finish puts it back.
var compileLimit struct {
	mu     sync.Mutex
	active int
	saved  int64
}

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
