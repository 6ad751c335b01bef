package lsp

import (
	"context"
	"errors"
	"sync"
	"time"
)

// verdictAge is how long a root's link check is reused. juju's own changes
// move the epoch, but the owner's (a git pull, an editor) do not: past
// this, a start checks again.
const verdictAge = 30 * time.Second

// verdicts keeps the last link check of each root: every language server
// start walks the root holding its folder, and a workspace of sixty Go
// modules, or a pnpm monorepo of many packages, starts many servers over
// the same root in a row.
type verdicts struct {
	mu     sync.Mutex
	byRoot map[string]verdict
	now    func() time.Time // time.Now; a test's clock
}

// verdict is one link check: its answer, when it began, and the
// workspace's epoch then.
type verdict struct {
	link  string
	err   error
	epoch string
	at    time.Time
}

func (v *verdicts) clock() time.Time {
	if v.now != nil {
		return v.now()
	}
	return time.Now()
}

// checkLinks is linkToSecret over root, within the time initialize gets,
// or the answer of a check of the same root begun less than verdictAge ago
// at the workspace's current epoch: nothing juju ran since could have
// made a link, and the epoch is read before the walk, so a change while
// it ran moves it past the verdict. Without Options.Epoch every start
// walks. A walk cut short because the start's own context ended is not
// kept.
func (m *Manager) checkLinks(ctx context.Context, root string) (string, error) {
	if m.opts.Epoch == nil {
		return m.walkLinks(ctx, root)
	}
	epoch := m.opts.Epoch()
	v := &m.verdicts
	v.mu.Lock()
	at := v.clock()
	last, ok := v.byRoot[root]
	v.mu.Unlock()
	if ok && last.epoch == epoch && at.Sub(last.at) >= 0 && at.Sub(last.at) < verdictAge {
		return last.link, last.err
	}
	link, err := m.walkLinks(ctx, root)
	if err != nil && !errors.Is(err, errScanBound) && ctx.Err() != nil {
		return link, err
	}
	v.mu.Lock()
	if v.byRoot == nil {
		v.byRoot = map[string]verdict{}
	}
	if prev, ok := v.byRoot[root]; !ok || !prev.at.After(at) {
		v.byRoot[root] = verdict{link: link, err: err, epoch: epoch, at: at}
	}
	v.mu.Unlock()
	return link, err
}

// walkLinks is linkToSecret bounded by the time initialize gets: the
// start's context never ends (its callers share it).
func (m *Manager) walkLinks(ctx context.Context, root string) (string, error) {
	lctx, cancel := context.WithTimeout(ctx, m.opts.InitTimeout)
	defer cancel()
	return m.linkToSecret(lctx, root)
}
