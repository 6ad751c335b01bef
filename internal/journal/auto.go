package journal

import (
	"context"
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
		if j.settled() != nil {
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

// settle is the start's Recover, run once by whichever comes first: Start
// or a call waiting in Settled.
type settle struct {
	once sync.Once
	done chan struct{} // closed when Recover has returned
	err  error         // what it returned, read after done
}

// Settled waits, for at most ctx, until the change a crashed writer left
// pending has been settled, starting that if Start has not. A call that
// reads the workspace waits for it: until then the workspace may hold a
// mix of old and new files that never existed together, which Recover puts
// right in the background. A write settles for itself (withDB); a journal
// that cannot be opened leaves the workspace as it is, and Settled returns
// nil after logging why. Later, a change another juju process left halfway
// on this workspace (killed mid-apply while this one runs) is settled the
// same way before the call goes on (settlePeers).
func (j *Journal) Settled(ctx context.Context) error {
	j.startSettle()
	select {
	case <-j.settle.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	j.settlePeers()
	return nil
}

// settled runs the start's Recover if no one has, waits for it, and says
// what it returned.
func (j *Journal) settled() error {
	j.startSettle()
	<-j.settle.done
	return j.settle.err
}

func (j *Journal) startSettle() {
	j.settle.once.Do(func() {
		go func() {
			defer close(j.settle.done)
			if err := j.Recover(); err != nil {
				j.log.Warn("journal: settling a pending change", "err", err)
				j.settle.err = err
			}
		}()
	})
}

// Wait waits for the background work of Start and of WithAutoPrune to
// end, and for what the last change does after its answer (withLater).
func (j *Journal) Wait() {
	j.awaitLater()
	j.auto.wg.Wait()
}
