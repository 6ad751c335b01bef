package plugin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tetratelabs/wazero"

	"github.com/jujutools/juju/internal/wasmstop"
)

// Defaults for per-call limits; a manifest may ask for others within the
// ceilings below.
const (
	DefaultMemoryMiB = 256
	DefaultTimeout   = 30 * time.Second
	MaxMemoryMiB     = 1024
	MaxTimeout       = 10 * time.Minute
	MaxInstances     = 16
)

// Options configure a Runtime. The zero value is usable.
type Options struct {
	// CacheDir holds wazero's compilation cache; empty keeps it in memory.
	CacheDir string
	// MemoryMiB caps each instance's linear memory (DefaultMemoryMiB if 0).
	MemoryMiB int
	// Timeout bounds each call (DefaultTimeout if 0).
	Timeout time.Duration
	// Instances bounds the pool of each plugin (2×GOMAXPROCS, at least 4, if 0).
	Instances int
	// IdleTTL is how long an instance beyond a plugin's most recently used
	// one may wait idle before it is disposed of (DefaultIdleTTL if 0).
	IdleTTL time.Duration
	// UnloadAfter is how long a plugin compiled on demand (UnloadWhenIdle)
	// stays loaded after its last call (DefaultUnloadAfter if 0; never if
	// negative).
	UnloadAfter time.Duration
	// Logger receives plugin logs and failures (discarded if nil).
	Logger *slog.Logger
}

// Runtime is shared by every plugin of one juju process.
type Runtime struct {
	opts Options
	log  *slog.Logger

	// cacheOnce opens the on-disk cache when a compilation or
	// CacheProblem first needs it, not at start: its probe writes a file.
	cacheOnce sync.Once

	mu       sync.Mutex
	cacheDir string                      // the on-disk cache in use, absolute; "" when in memory
	cacheErr error                       // why the on-disk cache is not used
	modules  map[moduleKey]*directModule // compiled or compiling, shared by key
}

// NewRuntime validates opts. The compilation cache is opened when first
// needed (openCache). A cache directory that cannot be made or written is
// not an error: the cache is an optimisation, so the runtime compiles in
// memory instead, warns once, and says why in CacheProblem.
func NewRuntime(opts Options) (*Runtime, error) {
	if opts.MemoryMiB == 0 {
		opts.MemoryMiB = DefaultMemoryMiB
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.IdleTTL <= 0 {
		opts.IdleTTL = DefaultIdleTTL
	}
	if opts.UnloadAfter == 0 {
		opts.UnloadAfter = DefaultUnloadAfter
	}
	if opts.Instances == 0 {
		opts.Instances = DefaultInstances()
	}
	if opts.MemoryMiB < 0 || opts.MemoryMiB > MaxMemoryMiB || opts.Timeout < 0 || opts.Instances < 0 {
		return nil, errors.New("plugin: limits out of range")
	}
	opts.Instances = min(opts.Instances, MaxInstances)
	// Extism wires a guest's WASI stdout and stderr to the process's own when
	// this variable is set; over stdio that would put plugin output into the
	// MCP stream. Plugins log through juju_log instead.
	os.Unsetenv("EXTISM_ENABLE_WASI_OUTPUT")
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Runtime{opts: opts, log: log}, nil
}

// openCache opens the on-disk compilation cache, once: the first
// compilation (or CacheProblem) waits for it, and a start that answers its
// client before compiling anything does not make and remove the probe's
// file first (RATIONALE).
func (r *Runtime) openCache() {
	r.cacheOnce.Do(func() {
		if r.opts.CacheDir == "" {
			return
		}
		dir, err := openDiskCache(r.opts.CacheDir)
		r.mu.Lock()
		defer r.mu.Unlock()
		if err != nil {
			r.inMemory(err)
			return
		}
		r.cacheDir = dir
	})
}

// openDiskCache makes wazero's compilation cache in dir, proves that it
// can be written there, and returns dir made absolute.
func openDiskCache(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(abs, ".juju-probe-*")
	if err != nil {
		return "", err
	}
	f.Close()
	if err := os.Remove(f.Name()); err != nil {
		return "", err
	}
	c, err := wazero.NewCompilationCacheWithDir(abs) // makes wazero's own folder in it
	if err != nil {
		return "", err
	}
	return abs, c.Close(context.Background())
}

// inMemory turns to a compilation cache in memory for the compilations to
// come, because of cause, and warns once. r.mu is held or r is new.
func (r *Runtime) inMemory(cause error) {
	if r.cacheErr != nil {
		return
	}
	r.cacheErr = cause
	r.log.Warn("the compilation cache cannot be used; compiling plugins in memory, so each start compiles them again",
		"cache", r.opts.CacheDir, "reason", cause)
	r.cacheDir = ""
}

// CacheProblem says why the on-disk compilation cache is not used (the
// error that made the runtime turn to memory), or nil when it is used or
// none was asked for.
func (r *Runtime) CacheProblem() error {
	r.openCache()
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cacheErr
}

// diskCache is the on-disk compilation cache new compilations use, or ""
// when they compile in memory.
func (r *Runtime) diskCache() string {
	r.openCache()
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cacheDir
}

// cacheFailed reports whether err, a failed compilation, came from the
// on-disk cache (a file in it that could not be written or read: a full
// disk, a read-only one); the runtime then compiles in memory from now on,
// and the caller compiles again.
func (r *Runtime) cacheFailed(err error) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	dir := r.cacheDir
	if dir == "" && r.cacheErr != nil {
		dir, _ = filepath.Abs(r.opts.CacheDir) // the compilation began before the switch
	}
	if dir == "" {
		return false
	}
	var paths []string
	var pe *fs.PathError
	if errors.As(err, &pe) {
		paths = append(paths, pe.Path)
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		paths = append(paths, le.Old, le.New)
	}
	for _, p := range paths {
		if p == dir || strings.HasPrefix(p, dir+string(filepath.Separator)) {
			r.inMemory(err)
			return true
		}
	}
	return false
}

// Close ends the runtime. Plugins must be closed first: each compilation's
// machine code is released with the plugins that ran it.
func (r *Runtime) Close(context.Context) error { return nil }

// engine is what one compilation compiles in: a wazero runtime
// configuration and, when the on-disk cache is in use, a cache value of
// its own over that folder. wazero keeps every module compiled through a
// cache value, its machine code and decoded form, until that value is
// closed, whatever else is closed; so each compilation has its own, closed
// after the runtime that ran it (engine.close). Without one, the
// runtime's own engine holds the module and goes with the runtime.
type engine struct {
	cfg   wazero.RuntimeConfig
	cache wazero.CompilationCache // nil when compiling in memory
}

// newEngine is the engine of a new compilation, whose linear memory is
// limited to pages (memoryPages). With stopGlobal, its module was
// instrumented (wasmstop) and is stopped through its stop flag; otherwise
// wazero checks for a closed module at every loop turn
// (CloseOnContextDone), which costs far more.
func (r *Runtime) newEngine(pages uint32, stopGlobal bool) engine {
	cfg := wazero.NewRuntimeConfig().
		WithCloseOnContextDone(!stopGlobal).
		WithMemoryLimitPages(pages)
	dir := r.diskCache()
	if dir == "" {
		return engine{cfg: cfg}
	}
	c, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		// The folder went away or turned into a file since the start.
		r.mu.Lock()
		r.inMemory(err)
		r.mu.Unlock()
		return engine{cfg: cfg}
	}
	return engine{cfg: cfg.WithCompilationCache(c), cache: c}
}

// memoryPages is the linear memory, in 64 KiB pages, an instance of wasm
// (its tables bounded: wasmstop.BoundTables) may have under a cap of
// memMiB: the cap less what its tables may hold, which wazero keeps in
// juju's heap beside the linear memory. So the cap the owner is shown
// bounds both. A Go module's tables cost one page.
func memoryPages(memMiB int, wasm []byte) (uint32, error) {
	tables, err := wasmstop.TableBytes(wasm)
	if err != nil {
		return 0, err
	}
	const page = 1 << 16
	pages, tablePages := int64(memMiB)<<20/page, (tables+page-1)/page
	if tablePages >= pages {
		return 0, fmt.Errorf("the module's tables may hold %d MiB, all of its memory limit of %d MiB: raise limits.memoryMiB in its manifest, or give its tables a smaller maximum", (tables+1<<20-1)>>20, memMiB)
	}
	return uint32(pages - tablePages), nil
}

// close releases what e compiled, once the runtimes that ran it are
// closed.
func (e engine) close(ctx context.Context) error {
	if e.cache == nil {
		return nil
	}
	return e.cache.Close(ctx)
}
