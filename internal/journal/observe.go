package journal

import (
	"path/filepath"
)

// Touched is one path a committed change wrote.
type Touched struct {
	Path   string // absolute, symlink-free
	Action string // abi.ActionCreated, ActionModified, ActionDeleted, ActionDirCreated, ActionDirDeleted
}

// WithObserver calls f after every committed change — an apply, a plan
// applied, a rollback — with the paths it wrote, in the change's order.
// f runs on the writer's goroutine after the change is durable: it must be
// quick (the language servers' manager only notes the paths).
func WithObserver(f func([]Touched)) Option { return func(o *options) { o.observer = f } }

// observe tells the observer about the change p just committed.
func (j *Journal) observe(p *prepared) {
	if j.opts.observer == nil {
		return
	}
	changes := fileChanges(p.recs)
	out := make([]Touched, len(p.steps))
	for i, s := range p.steps {
		out[i] = Touched{Path: filepath.Join(s.r.Real, filepath.FromSlash(s.rel)), Action: changes[i].Action}
	}
	j.opts.observer(out)
}
