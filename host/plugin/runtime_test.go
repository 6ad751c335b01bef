package plugin

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A cache directory that cannot be used is no error: the runtime compiles
// in memory and says why.
func TestCacheThatCannotBeMadeIsInMemory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cache")
	os.WriteFile(file, nil, 0o600)
	r, err := NewRuntime(Options{CacheDir: file})
	if err != nil {
		t.Fatalf("NewRuntime: %v", err)
	}
	defer r.Close(context.Background())
	if r.CacheProblem() == nil || r.cacheDir != "" {
		t.Fatalf("problem %v, dir %q", r.CacheProblem(), r.cacheDir)
	}
}

// The runtime opens its cache when it first needs it, not when it is made:
// a start that answers its client before compiling anything does not make
// the folder, write the probe's file and remove it first.
func TestCacheIsOpenedWhenFirstNeeded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	r, err := NewRuntime(Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(context.Background())
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the cache folder was touched before anything compiled: %v", err)
	}
	if got := r.diskCache(); got != dir {
		t.Fatalf("the cache in use is %q, not %q", got, dir)
	}
	if _, err := os.Stat(cacheFolder(dir)); err != nil {
		t.Fatalf("the first compilation's cache was not opened: %v", err)
	}
}

// A compilation that fails on a file of the cache turns the runtime to
// memory; other failures do not.
func TestCacheFailureTurnsToMemory(t *testing.T) {
	dir := t.TempDir()
	r, err := NewRuntime(Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(context.Background())
	if r.CacheProblem() != nil || r.cacheDir == "" {
		t.Fatalf("a writable cache is not used: %v", r.CacheProblem())
	}
	for _, other := range []error{
		errors.New("invalid wasm"),
		&fs.PathError{Op: "open", Path: dir + "-other/x", Err: syscall.ENOSPC},
	} {
		if r.cacheFailed(other) {
			t.Fatalf("%v taken for a cache failure", other)
		}
	}
	full := &fs.PathError{Op: "write", Path: filepath.Join(dir, "wazero-v1", "abc.tmp"), Err: syscall.ENOSPC}
	if !r.cacheFailed(errors.Join(errors.New("compiling"), full)) {
		t.Fatal("a full cache not recognised")
	}
	if !errors.Is(r.CacheProblem(), syscall.ENOSPC) || r.cacheDir != "" || r.newEngine(1, true).cache != nil {
		t.Fatalf("problem %v, dir %q, new compilations still cached on disk", r.CacheProblem(), r.cacheDir)
	}
	// A compilation that began before the switch retries too, once more,
	// and the first cause stays the one reported.
	if !r.cacheFailed(&os.LinkError{Op: "rename", Old: filepath.Join(dir, "a.tmp"), New: filepath.Join(dir, "a"), Err: syscall.EROFS}) || !errors.Is(r.CacheProblem(), syscall.ENOSPC) {
		t.Fatal("a late failure of the old cache")
	}
}

// A runtime that turned to memory loads nothing from its disk cache, so
// none of its plugins is said to be compiled in the cache.
func TestInMemoryRuntimeLoadsNothingFromTheCache(t *testing.T) {
	dir := t.TempDir()
	r, err := NewRuntime(Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(context.Background())
	wasm := []byte("\x00asm not compiled, only named")
	if err := os.MkdirAll(cacheFolder(dir), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cacheFolder(dir), cacheNames(wasm)[0]), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	p := &Plugin{rt: r, source: func() ([]byte, error) { return wasm, nil }}
	if !p.InCache() {
		t.Fatal("the compiled code in the cache is not found")
	}
	r.cacheFailed(&fs.PathError{Op: "write", Path: filepath.Join(dir, "x.tmp"), Err: syscall.ENOSPC})
	if p.InCache() {
		t.Fatal("a runtime compiling in memory says the plugin is in the cache")
	}
}
