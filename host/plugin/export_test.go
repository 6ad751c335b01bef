package plugin

import "errors"

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
