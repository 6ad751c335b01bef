package plugin

import (
	"context"
	"runtime/debug"
	"time"
)

// A plugin compiled on demand (task discoverers, read_image: the warm-up
// leaves them out) is held, once loaded, for the rest of the session: its
// machine code, its decoded module and an instance's linear memory, about
// 45 MB for core-discover, for an overview asked once an hour. Such a
// plugin is unloaded once no call has used it for Options.UnloadAfter (two
// minutes by default): its instances are disposed of, its compiled module
// is closed, and the next call compiles it again (from the cache: about
// 0.2 s for core-discover).

// DefaultUnloadAfter is how long a plugin compiled on demand stays loaded
// after its last call (Options.UnloadAfter).
const DefaultUnloadAfter = 2 * time.Minute

// UnloadWhenIdle marks p as compiled on demand: it is unloaded once unused
// for the runtime's UnloadAfter, and loaded again by its next call.
func (p *Plugin) UnloadWhenIdle() {
	if p.rt.opts.UnloadAfter < 0 {
		return
	}
	p.unloads.Store(true)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.armUnload()
}

// giveBack returns a call's instance slot and, for a plugin compiled on
// demand, notes the time and schedules the look at it.
func (p *Plugin) giveBack() {
	if p.unloads.Load() {
		p.mu.Lock()
		p.lastUsed = time.Now()
		p.armUnload()
		p.mu.Unlock()
	}
	<-p.tokens
}

// armUnload schedules unloadIfIdle unless it is scheduled. p.mu is held.
func (p *Plugin) armUnload() {
	if !p.unloads.Load() || p.unloadTimer != nil || p.closing || p.cur == nil {
		return
	}
	p.unloadTimer = time.AfterFunc(max(p.rt.opts.UnloadAfter-time.Since(p.lastUsed), time.Millisecond), p.unloadIfIdle)
}

// unloadIfIdle unloads p when no call has used it for UnloadAfter and none
// runs; a call running or made since schedules the next look itself.
func (p *Plugin) unloadIfIdle() {
	p.mu.Lock()
	p.unloadTimer = nil
	if p.cur == nil || p.closing {
		p.mu.Unlock()
		return
	}
	if wait := p.rt.opts.UnloadAfter - time.Since(p.lastUsed); wait > 0 {
		p.unloadTimer = time.AfterFunc(wait, p.unloadIfIdle)
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()

	// Every slot, without waiting: no call runs in p while they are held.
	// A call that holds one schedules the next look when it ends.
	held := 0
	defer func() {
		for range held {
			<-p.tokens
		}
	}()
	for held < cap(p.tokens) {
		select {
		case p.tokens <- struct{}{}:
			held++
		default:
			return
		}
	}
	p.mu.Lock()
	l := p.cur
	if l == nil || p.closing || !closed(l.warmed) || time.Since(p.lastUsed) < p.rt.opts.UnloadAfter {
		p.mu.Unlock()
		return
	}
	idle := p.idle
	p.idle = nil
	if p.trimTimer != nil {
		p.trimTimer.Stop()
		p.trimTimer = nil
	}
	p.cur = nil
	p.state.Store(int32(NotCompiled))
	p.mu.Unlock()

	for _, inst := range idle {
		inst.dispose()
	}
	if err := l.close(context.Background(), p.rt); err != nil {
		p.rt.log.Warn("unloading an idle plugin", "plugin", p.Name(), "err", err)
	}
	// The machine code is unmapped by a finalizer, and the decoded module
	// is garbage: collect now, while nothing runs, and hand the pages back.
	debug.FreeOSMemory()
	p.rt.log.Debug("idle plugin unloaded", "plugin", p.Name(), "instances", len(idle))
}
