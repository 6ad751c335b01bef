package plugin

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"time"

	"github.com/tetratelabs/wazero"
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
	// Logger receives plugin logs and failures (discarded if nil).
	Logger *slog.Logger
}

// Runtime is shared by every plugin of one juju process.
type Runtime struct {
	opts  Options
	cache wazero.CompilationCache
	log   *slog.Logger
}

// NewRuntime validates opts and opens the compilation cache.
func NewRuntime(opts Options) (*Runtime, error) {
	if opts.MemoryMiB == 0 {
		opts.MemoryMiB = DefaultMemoryMiB
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Instances == 0 {
		opts.Instances = max(4, 2*runtime.GOMAXPROCS(0))
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
	r := &Runtime{opts: opts, log: log}
	if opts.CacheDir != "" {
		if err := os.MkdirAll(opts.CacheDir, 0o700); err != nil {
			return nil, fmt.Errorf("plugin: compilation cache: %w", err)
		}
		c, err := wazero.NewCompilationCacheWithDir(opts.CacheDir)
		if err != nil {
			return nil, fmt.Errorf("plugin: compilation cache: %w", err)
		}
		r.cache = c
	} else {
		r.cache = wazero.NewCompilationCache()
	}
	return r, nil
}

// Close releases the compilation cache. Plugins must be closed first.
func (r *Runtime) Close(ctx context.Context) error {
	return r.cache.Close(ctx)
}

func (r *Runtime) runtimeConfig(memMiB int) wazero.RuntimeConfig {
	return wazero.NewRuntimeConfig().
		WithCompilationCache(r.cache).
		WithCloseOnContextDone(true).
		WithMemoryLimitPages(uint32(memMiB) * 16) // 64 KiB pages
}
