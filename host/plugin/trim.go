package plugin

import "time"

// A plugin's pool keeps the instances its calls made, up to its bound, so
// that calls running side by side each find one. After a burst (a client
// calling sixteen tools at once) that is sixteen linear memories of several
// MB each, kept for a session that may then stay quiet for hours. An
// instance idle for longer than Options.IdleTTL (30 s by default) is
// disposed of; the most recently used one always stays, so the next call
// never waits for a start.

// DefaultIdleTTL is how long an instance beyond the first may wait idle in
// a plugin's pool before it is disposed of (Options.IdleTTL).
const DefaultIdleTTL = 30 * time.Second

// armTrim schedules a trim when more than one instance waits and none is
// scheduled. p.mu is held.
func (p *Plugin) armTrim() {
	if len(p.idle) <= 1 || p.trimTimer != nil || p.closing {
		return
	}
	p.trimTimer = time.AfterFunc(p.rt.opts.IdleTTL, p.trim)
}

// trim disposes of the instances that waited the idle TTL or longer, but the
// most recently used one, and schedules the next trim if others wait.
func (p *Plugin) trim() {
	p.mu.Lock()
	p.trimTimer = nil
	// acquire takes from the end: the front holds the least recently used.
	ttl := p.rt.opts.IdleTTL
	now := time.Now()
	n := 0
	for n < len(p.idle)-1 && now.Sub(p.idle[n].idleSince) >= ttl {
		n++
	}
	drop := append([]*instance(nil), p.idle[:n]...)
	p.idle = append(p.idle[:0], p.idle[n:]...)
	clear(p.idle[len(p.idle):cap(p.idle)])
	if len(p.idle) > 1 && !p.closing {
		wait := ttl - now.Sub(p.idle[0].idleSince)
		p.trimTimer = time.AfterFunc(max(wait, time.Millisecond), p.trim)
	}
	p.mu.Unlock()
	for _, inst := range drop {
		inst.dispose()
	}
	if len(drop) > 0 {
		p.rt.log.Debug("idle plugin instances disposed of", "plugin", p.Name(), "instances", len(drop))
	}
}
