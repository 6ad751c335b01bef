package plugin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	extism "github.com/extism/go-sdk"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/internal/wasmstop"
	"github.com/jujutools/juju/sdk/abi"
)

// WasmSource yields a plugin's wasm bytes when it is compiled.
type WasmSource func() ([]byte, error)

// State is where a plugin is in its compilation.
type State int32

// Compilation states.
const (
	NotCompiled State = iota
	Compiling
	Ready
	Failed
)

func (s State) String() string {
	return [...]string{"not compiled", "compiling", "ready", "failed"}[s]
}

// Plugin is one loaded plugin. It is safe for concurrent use.
type Plugin struct {
	Manifest *manifest.Manifest

	rt     *Runtime
	source WasmSource
	grants atomic.Pointer[map[abi.Capability]bool] // swapped whole by SetGrants
	fns    []hostfns.Func
	// space is the state space of the install loaded (SetSpace), told to
	// every host function the plugin calls (hostfns.Caller.Space)
	space string
	// embedded: the wasm is part of juju's binary (LoadEmbedded)
	embedded bool
	// outputs holds the output schemas of its tools, compiled when
	// first needed (checkOutput; installed plugins only): tool → *outputSchema
	outputs sync.Map
	// releaseWasm, when set, is called once the wasm has been compiled (or
	// failed to): its bytes are not read again.
	releaseWasm func()
	memMiB      int
	timeout     time.Duration

	state atomic.Int32

	// channel is set for an ABI 2 plugin: its instances get a channel, its
	// exports take their input and give their output through it.
	channel bool

	tokens    chan struct{} // one per live instance allowed
	mu        sync.Mutex
	cur       *load       // the compilation serving calls: nil before the first and after an unload
	idle      []*instance // cur's, least recently used first
	trimTimer *time.Timer // the next trim of idle, when scheduled (trim.go)
	// unloads: the plugin is compiled on demand, and let go once unused
	// for the runtime's UnloadAfter (UnloadWhenIdle, unload.go)
	unloads     atomic.Bool
	lastUsed    time.Time   // when the last call gave its slot back
	unloadTimer *time.Timer // the next look at lastUsed, when scheduled
	closing     bool        // Close was called: no compilation may start
}

// load is one compilation of a plugin and what it made, kept until the
// plugin is closed or unloaded. Its fields are set before done is closed
// and never change after.
type load struct {
	done     chan struct{}          // closed when the compilation ended
	warmed   chan struct{}          // closed when the warm-up instance is made too
	compiled *extism.CompiledPlugin // run through Extism
	direct   *directModule          // or run on wazero alone (runsDirect)
	eng      engine                 // what compiled `compiled`, closed after it
	// wasmBytes is the size of the wasm `compiled` holds, counted as
	// loaded (moduleLoaded) until the first close; a direct module counts
	// its own.
	wasmBytes int64
	uncount   sync.Once
	err       error
	took      time.Duration
}

// close releases what l compiled; no instance of it may be left.
func (l *load) close(ctx context.Context, rt *Runtime) error {
	switch {
	case l.direct != nil:
		return rt.closeDirect(ctx, l.direct)
	case l.compiled != nil:
		l.uncount.Do(func() { moduleLoaded(-l.wasmBytes) })
		return errors.Join(l.compiled.Close(ctx), l.eng.close(ctx))
	}
	return nil
}

// LoadEmbedded is Load for a plugin whose wasm is built into juju's own
// binary (the core plugins): its sha256 was stamped into the manifest
// beside it when the binary was built, so checking it again on every
// start would only spend time (about 8 ms for the core plugin's 6 MB)
// hashing bytes that cannot have changed. release, if not nil, is called
// once the wasm has been compiled: the binary's pages that hold it can then
// leave the resident set (core.Plugin.Release).
func (r *Runtime) LoadEmbedded(m *manifest.Manifest, src WasmSource, release func(), grants []abi.Capability, fns []hostfns.Func) *Plugin {
	p := r.Load(m, src, grants, fns)
	p.embedded = true
	p.releaseWasm = release
	return p
}

// Load prepares a plugin without compiling it. grants are the capabilities
// the owner granted (for core plugins, those the manifest asks for); fns are
// every host function juju offers: a call to one whose capability is not
// granted is answered CAPABILITY_DENIED at call time.
func (r *Runtime) Load(m *manifest.Manifest, src WasmSource, grants []abi.Capability, fns []hostfns.Func) *Plugin {
	p := &Plugin{
		Manifest: m,
		rt:       r,
		source:   src,
		fns:      fns,
		memMiB:   r.opts.MemoryMiB,
		timeout:  r.opts.Timeout,
		channel:  m.ABI >= abi.VersionChannel,
	}
	p.SetGrants(grants)
	lim := limitsOf(m.Limits, Limits{MemoryMiB: r.opts.MemoryMiB, Timeout: r.opts.Timeout, Instances: r.opts.Instances})
	p.memMiB, p.timeout = lim.MemoryMiB, lim.Timeout
	p.tokens = make(chan struct{}, lim.Instances)
	return p
}

// Limits are what a plugin runs under: each instance's linear memory, each
// call's time, and how many instances at once.
type Limits struct {
	MemoryMiB int           `json:"memoryMiB"`
	Timeout   time.Duration `json:"-"`
	TimeoutMs int64         `json:"timeoutMs"`
	Instances int           `json:"instances"`
}

// MemoryCeilingMiB is the linear memory all its instances may hold
// together.
func (l Limits) MemoryCeilingMiB() int { return l.MemoryMiB * l.Instances }

// ManifestLimits are the limits a plugin asking for l runs under with the
// runtime's defaults: what `juju plugins install` and `info` show the
// owner.
func ManifestLimits(l *manifest.Limits) Limits {
	return limitsOf(l, Limits{MemoryMiB: DefaultMemoryMiB, Timeout: DefaultTimeout, Instances: DefaultInstances()})
}

// DefaultInstances is the pool of a plugin whose manifest asks for none:
// twice the processors, at least 4, at most MaxInstances.
func DefaultInstances() int { return min(max(4, 2*runtime.GOMAXPROCS(0)), MaxInstances) }

// limitsOf applies a manifest's asks to the defaults, within the ceilings.
func limitsOf(l *manifest.Limits, d Limits) Limits {
	if l != nil {
		if l.MemoryMiB > 0 {
			d.MemoryMiB = min(l.MemoryMiB, MaxMemoryMiB)
		}
		if l.TimeoutMs > 0 {
			// Capped before it is scaled: a huge timeoutMs would overflow.
			d.Timeout = time.Duration(min(l.TimeoutMs, int(MaxTimeout/time.Millisecond))) * time.Millisecond
		}
		if l.Instances > 0 {
			d.Instances = min(l.Instances, MaxInstances)
		}
	}
	d.TimeoutMs = d.Timeout.Milliseconds()
	return d
}

// SetSpace sets the state space of the install loaded
// (installed.Grants.Space): every host function the plugin calls is told
// it, so its state is that install's. Called before the first call.
func (p *Plugin) SetSpace(space string) { p.space = space }

// Name is the plugin's manifest name.
func (p *Plugin) Name() string { return p.Manifest.Name }

// State reports the compilation state.
func (p *Plugin) State() State { return State(p.state.Load()) }

// CompileTime is how long the compilation serving calls took (zero
// before it ended, and once the plugin was unloaded).
func (p *Plugin) CompileTime() time.Duration {
	p.mu.Lock()
	l := p.cur
	p.mu.Unlock()
	if l == nil || !closed(l.done) {
		return 0
	}
	return l.took
}

// closed reports whether ch is closed.
func closed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// Granted reports whether the plugin holds capability c.
func (p *Plugin) Granted(c abi.Capability) bool {
	g := p.grants.Load()
	return g != nil && (*g)[c]
}

// SetGrants replaces the plugin's grants; host calls made after it returns
// are checked against the new set (the owner's grant or revoke applies to
// the next call without a restart). Only capabilities the plugin's own
// manifest asks for are held: a grant meant for another version of it, or
// written by hand, gives the code running here nothing more.
func (p *Plugin) SetGrants(grants []abi.Capability) {
	asked := p.Manifest.CapabilitySet()
	m := make(map[abi.Capability]bool, len(grants))
	for _, g := range grants {
		if asked[g] {
			m[g] = true
		}
	}
	p.grants.Store(&m)
}

// Warm compiles the plugin now; concurrent callers share one compilation.
// ctx bounds only this caller's wait.
func (p *Plugin) Warm(ctx context.Context) error {
	_, err := p.loaded(ctx)
	return err
}

// Ready waits until Warm's compilation and the warm-up instance it makes
// are done (or ctx ends).
func (p *Plugin) Ready(ctx context.Context) error {
	l, err := p.loaded(ctx)
	if err != nil {
		return err
	}
	select {
	case <-l.warmed:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// loaded returns the compilation serving calls once it has ended,
// starting one when none is.
func (p *Plugin) loaded(ctx context.Context) (*load, error) {
	if err := ctx.Err(); err != nil {
		return nil, err // a cancelled caller starts no compilation
	}
	l := p.begin()
	select {
	case <-l.done:
		return l, l.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// begin returns the compilation serving calls, started when there was none.
func (p *Plugin) begin() *load {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cur != nil {
		return p.cur
	}
	l := &load{done: make(chan struct{}), warmed: make(chan struct{})}
	p.cur = l
	if p.closing {
		// Closed before it compiled: it never will.
		l.err = ErrClosed
		p.state.Store(int32(Failed))
		close(l.done)
		close(l.warmed)
		return l
	}
	p.state.Store(int32(Compiling))
	go p.compile(l)
	return l
}

func (p *Plugin) compile(l *load) {
	defer close(l.warmed)
	p.compileOnce(l)
	if l.err == nil {
		p.prewarm(l)
	}
}

func (p *Plugin) compileOnce(l *load) {
	defer close(l.done)
	defer compiling()()
	p.rt.log.Debug("compiling plugin", "plugin", p.Name())
	start := time.Now()
	l.err = p.compileNow(l)
	l.took = time.Since(start)
	if p.releaseWasm != nil {
		p.releaseWasm()
	}
	if l.err != nil {
		p.state.Store(int32(Failed))
		p.rt.log.Error("plugin failed to compile", "plugin", p.Name(), "err", l.err)
		return
	}
	p.state.Store(int32(Ready))
	p.rt.log.Debug("plugin compiled", "plugin", p.Name(), "took", l.took)
}

// ErrHashMismatch reports wasm bytes that do not match the manifest's sha256.
var ErrHashMismatch = errors.New("plugin: wasm sha256 does not match the manifest")

// ErrABIMismatch reports a manifest whose abi is not the one its module
// speaks (see ModuleABI).
var ErrABIMismatch = errors.New("plugin: abi mismatch")

func (p *Plugin) compileNow(l *load) error {
	wasm, err := p.source()
	if err != nil {
		return fmt.Errorf("plugin %s: reading wasm: %w", p.Name(), err)
	}
	if !p.embedded {
		sum := sha256.Sum256(wasm)
		if hex.EncodeToString(sum[:]) != p.Manifest.Wasm.SHA256 {
			return fmt.Errorf("%w (%s)", ErrHashMismatch, p.Name())
		}
	}
	imports, _, err := ModuleInfo(wasm)
	if err != nil {
		return fmt.Errorf("plugin %s: %w", p.Name(), err)
	}
	if v := moduleABI(imports); v != p.Manifest.ABI {
		return fmt.Errorf("%w: plugin %s: the manifest says abi %d, the module speaks abi %d", ErrABIMismatch, p.Name(), p.Manifest.ABI, v)
	}
	// A module not in the cache is compiled on every core: the first call
	// after an install or an upgrade waits for it.
	ctx := experimental.WithCompilationWorkers(context.Background(), runtime.GOMAXPROCS(0))
	if runsDirect(p.Manifest.ABI, imports) {
		l.direct, err = p.rt.directModule(ctx, p, wasm)
		return err
	}
	if wasm, err = wasmstop.BoundTables(wasm); err != nil {
		return fmt.Errorf("plugin %s: %w", p.Name(), err)
	}
	pages, err := memoryPages(p.memMiB, wasm)
	if err != nil {
		return fmt.Errorf("plugin %s: %w", p.Name(), err)
	}
	m := extism.Manifest{
		Wasm: []extism.Wasm{extism.WasmData{Data: wasm, Name: "main"}},
		// No AllowedHosts: Extism's own HTTP is denied. No AllowedPaths: no preopens.
		Memory: &extism.ManifestMemory{MaxPages: pages, MaxHttpResponseBytes: 0, MaxVarBytes: 1 << 20},
	}
	compile := func() error {
		eng := p.rt.newEngine(pages, false)
		cfg := extism.PluginConfig{
			RuntimeConfig: eng.cfg,
			EnableWasi:    true, // the Go wasip1 runtime needs clocks and random; no preopens are given
		}
		var err error
		if l.compiled, err = extism.NewCompiledPlugin(ctx, m, cfg, p.hostFunctions()); err != nil {
			eng.close(ctx)
			return err
		}
		l.eng, l.wasmBytes = eng, int64(len(wasm))
		moduleLoaded(l.wasmBytes)
		return nil
	}
	err = compile()
	if err != nil && p.rt.cacheFailed(err) {
		// The on-disk cache failed (full, read-only): compile in memory.
		err = compile()
	}
	return err
}

// Retire closes a plugin the host no longer serves (an update or a remove
// replaced it) once the calls running in it have ended: it takes every
// instance slot, so no call starts after it, waiting for those in use until
// ctx ends, and then closes the plugin.
func (p *Plugin) Retire(ctx context.Context) error {
	for range cap(p.tokens) {
		select {
		case p.tokens <- struct{}{}:
		case <-ctx.Done():
			return p.Close(context.Background())
		}
	}
	return p.Close(ctx)
}

// ErrClosed reports a call into a plugin closed before it compiled.
var ErrClosed = errors.New("plugin: closed")

// ErrStillCompiling reports a Close that gave up waiting for a compilation.
var ErrStillCompiling = errors.New("plugin: still compiling")

// Close drops every idle instance and the compiled module. A compilation in
// progress cannot be interrupted (closing under it would crash wazero), so
// Close waits for it until ctx ends and then leaves the plugin open.
func (p *Plugin) Close(ctx context.Context) error {
	p.mu.Lock()
	p.closing = true // no compilation starts after this
	l := p.cur
	if p.unloadTimer != nil {
		p.unloadTimer.Stop()
		p.unloadTimer = nil
	}
	p.mu.Unlock()
	if l == nil {
		return nil
	}
	select {
	case <-l.warmed:
	case <-ctx.Done():
		return fmt.Errorf("%w: %s", ErrStillCompiling, p.Name())
	}
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	if p.trimTimer != nil {
		p.trimTimer.Stop()
		p.trimTimer = nil
	}
	p.mu.Unlock()
	for _, in := range idle {
		in.dispose()
	}
	return l.close(ctx, p.rt)
}
