package plugin

// SameModule reports whether a and b run one compiled module.
func SameModule(a, b *Plugin) bool { return a.direct != nil && a.direct == b.direct }

// SharedModules is how many compiled modules r holds for sharing.
func (r *Runtime) SharedModules() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.modules)
}
