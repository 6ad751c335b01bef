package host

import (
	"context"
	"net/url"
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
	h.fetches = &fetchLog{byCall: map[string]*callFetches{}}
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
	byCall map[string]*callFetches
}

// callFetches are a call's fetches: the first audit.MaxFetches, and the
// rest counted.
type callFetches struct {
	listed  []audit.Fetch
	dropped *audit.DroppedFetches
}

func (l *fetchLog) observe(ctx context.Context, f fetch.Fetched) {
	c, ok := hostfns.CallerFrom(ctx)
	if !ok || c.CallID == "" {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	cf := l.byCall[c.CallID]
	if cf == nil {
		cf = &callFetches{}
		l.byCall[c.CallID] = cf
	}
	if len(cf.listed) < audit.MaxFetches {
		cf.listed = append(cf.listed, audit.NewFetch(f.URL, f.FinalURL, f.Status, f.Outcome, fetch.MaxURL))
		return
	}
	if cf.dropped == nil {
		cf.dropped = &audit.DroppedFetches{}
	}
	cf.dropped.Add(hostOf(f.URL), hostOf(f.FinalURL))
}

// hostOf is a URL's host (and port), "" when it has none.
func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Host
	}
	return ""
}

// take returns and forgets the fetches of a call.
func (l *fetchLog) take(callID string) ([]audit.Fetch, *audit.DroppedFetches) {
	if l == nil {
		return nil, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	cf := l.byCall[callID]
	delete(l.byCall, callID)
	if cf == nil {
		return nil, nil
	}
	return cf.listed, cf.dropped
}
