package plugin

import (
	"errors"
	"runtime/debug"
)

// SameModule reports whether a and b run one compiled module.
func SameModule(a, b *Plugin) bool { return a.module() != nil && a.module() == b.module() }

// module is the direct module serving p's calls, if any.
func (p *Plugin) module() *directModule {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cur == nil {
		return nil
	}
	return p.cur.direct
}

// SharedModules is how many compiled modules r holds for sharing.
func (r *Runtime) SharedModules() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.modules)
}

// StopsByGlobal reports whether p's instances are stopped through their
// stop global (an instrumented module) rather than by wazero's checks.
func StopsByGlobal(p *Plugin) bool { return p.module() != nil && p.module().stopGlobal }

// RefuseInstrumenting makes every module run as it is, stopped by wazero,
// until the test ends.
func RefuseInstrumenting(t interface{ Cleanup(func()) }) {
	saved := instrumentModule
	instrumentModule = func([]byte) ([]byte, error) { return nil, errors.New("refused by the test") }
	t.Cleanup(func() { instrumentModule = saved })
}

// SoftLimitState is the wasm counted as loaded and the memory limit in
// force, read together.
func SoftLimitState() (loaded, limit int64) {
	memLimit.mu.Lock()
	defer memLimit.mu.Unlock()
	return memLimit.loaded, debug.SetMemoryLimit(-1)
}

// CountedWasm is the wasm p's loaded module counts (0 when none is loaded).
func CountedWasm(p *Plugin) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.cur == nil:
		return 0
	case p.cur.direct != nil:
		return p.cur.direct.wasmBytes
	}
	return p.cur.wasmBytes
}

// KeepSoftMemoryLimit is SetSoftMemoryLimit(base) until the test ends;
// then the limit is no longer kept and the one before is put back.
func KeepSoftMemoryLimit(t interface{ Cleanup(func()) }, base int64) {
	before := debug.SetMemoryLimit(-1)
	SetSoftMemoryLimit(base)
	t.Cleanup(func() {
		SetSoftMemoryLimit(-1)
		debug.SetMemoryLimit(before)
	})
}

// KeptPerWasmByte is keptPerWasmByte.
const KeptPerWasmByte = keptPerWasmByte

// DropIdle disposes of p's idle instances, so that its next call starts
// one.
func DropIdle(p *Plugin) {
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, inst := range idle {
		inst.dispose()
	}
}
