package journal

import (
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// autoPrune runs Prune in the background after a change that left the
// database over the size limit (WithAutoPrune), at most once a minute.
type autoPrune struct {
	mu      sync.Mutex
	running bool
	last    time.Time
	wg      sync.WaitGroup
}

// autoPruneEvery is the least time between two background prunes.
const autoPruneEvery = time.Minute

// afterCommit starts a background prune when the database is over the size
// limit. The caller holds db open.
func (j *Journal) afterCommit(db *bolt.DB) {
	lim := j.opts.limits
	if !j.opts.autoPrune || lim.MaxSize <= 0 || usedBytes(db) <= lim.MaxSize {
		return
	}
	a := &j.auto
	a.mu.Lock()
	defer a.mu.Unlock()
	now := j.opts.now()
	if a.running || now.Sub(a.last) < autoPruneEvery {
		return
	}
	a.running, a.last = true, now
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		res, err := j.Prune()
		switch {
		case err != nil:
			j.log.Warn("journal: pruning", "err", err)
		case res.Changes > 0:
			j.log.Info("journal: pruned old changes", "changes", res.Changes, "through", res.Last, "freedBytes", res.Freed, "compacted", res.Compacted)
		}
		a.mu.Lock()
		a.running = false
		a.mu.Unlock()
	}()
}

// Start, in the background, settles a change a crashed writer left pending
// (Recover) and then prunes what is due (PruneIfDue). A server calls it
// once it has answered its client's first request.
func (j *Journal) Start() {
	j.auto.wg.Add(1)
	go func() {
		defer j.auto.wg.Done()
		if err := j.Recover(); err != nil {
			j.log.Warn("journal: settling a pending change", "err", err)
			return
		}
		res, err := j.PruneIfDue()
		switch {
		case err != nil:
			j.log.Warn("journal: pruning", "err", err)
		case res != nil && res.Changes > 0:
			j.log.Info("journal: pruned old changes", "changes", res.Changes, "through", res.Last, "freedBytes", res.Freed, "compacted", res.Compacted)
		}
	}()
}

// Wait waits for the background work of Start and of WithAutoPrune to end.
func (j *Journal) Wait() { j.auto.wg.Wait() }
