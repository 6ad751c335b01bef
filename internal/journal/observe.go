package journal

import (
	"path/filepath"

	"github.com/jujutools/juju/internal/policy"
)

// Touched is one path a committed change wrote.
type Touched struct {
	Path   string // absolute, symlink-free
	Action string // abi.ActionCreated, ActionModified, ActionDeleted, ActionDirCreated, ActionDirDeleted
}

// WithObserver calls f after every committed change — an apply, a plan
// applied, a rollback — with the paths it wrote, in the change's order,
// and after recovery settles a change a crashed writer left pending, with
// the paths of a change it kept, or those it put back. A recovery is no
// call of anyone's: without it, the approvals' epoch stayed where it was
// while the files under an approval changed.
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

// observeRecovered tells the observer about the paths of files, changes
// recovery settled, in roots.
func (j *Journal) observeRecovered(roots []*policy.Root, files []fileRec) {
	if j.opts.observer == nil || len(files) == 0 {
		return
	}
	changes := fileChanges(files)
	out := make([]Touched, len(files))
	for i, f := range files {
		out[i] = Touched{Path: filepath.Join(roots[f.Root].Real, filepath.FromSlash(f.Rel)), Action: changes[i].Action}
	}
	j.opts.observer(out)
}
