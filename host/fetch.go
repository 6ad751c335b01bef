package host

import (
	"context"
	"sync"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/hostfns/fetch"
	"github.com/jujutools/juju/internal/audit"
)

// fetchFuncs returns the fetch host function with the owner's settings
// (allowWebFetch, fetch.allow); every fetch it makes is kept for the audit
// record of the call that made it.
func (h *Host) fetchFuncs() []hostfns.Func {
	h.fetches = &fetchLog{byCall: map[string][]audit.Fetch{}}
	return fetch.New(fetch.Options{
		Enabled:   h.cfg.AllowWebFetch,
		Allow:     h.cfg.FetchAllow,
		UserAgent: "juju/" + h.cfg.Version + " (fetch_url; +https://github.com/jujutools/juju)",
		Observe:   h.fetches.observe,
		// Conversions allocate much garbage: the collector would run
		// throughout under the soft limit (RATIONALE).
		LiftMemoryLimit: plugin.LiftMemoryLimit,
		Logger:          h.log,
	})
}

// fetchLog holds the fetches of calls in progress, by call id, until the
// call's audit record takes them.
type fetchLog struct {
	mu     sync.Mutex
	byCall map[string][]audit.Fetch
}

func (l *fetchLog) observe(ctx context.Context, f fetch.Fetched) {
	c, ok := hostfns.CallerFrom(ctx)
	if !ok || c.CallID == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.byCall[c.CallID]) < audit.MaxFetches {
		l.byCall[c.CallID] = append(l.byCall[c.CallID], audit.Fetch{
			URL: audit.ShortURL(f.URL), FinalURL: audit.ShortURL(f.FinalURL), Status: f.Status, Outcome: f.Outcome,
		})
	}
}

// take returns and forgets the fetches of a call.
func (l *fetchLog) take(callID string) []audit.Fetch {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fs := l.byCall[callID]
	delete(l.byCall, callID)
	return fs
}
