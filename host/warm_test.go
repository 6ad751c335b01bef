package host

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jujutools/juju/host/core"
	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/memtest"
)

// newCoreHost is a host with the core plugins on an empty workspace, its
// folders in a temporary one and its compilation cache in cache (or there
// too when cache is ""), closed when t ends. It skips t when the core
// plugins are not built.
func newCoreHost(t *testing.T, cache string) *Host {
	t.Helper()
	if _, err := core.Plugins(); errors.Is(err, core.ErrNotBuilt) {
		t.Skip("core plugins not built (run `make plugins`)")
	}
	tmp := t.TempDir()
	root := filepath.Join(tmp, "ws")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if cache == "" {
		cache = filepath.Join(tmp, "cache")
	}
	dirs := config.Dirs{Config: filepath.Join(tmp, "config"), State: filepath.Join(tmp, "state"), Data: filepath.Join(tmp, "data"), Cache: cache}
	h, err := New(Config{Roots: []string{root}, Dirs: dirs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	return h
}

// Warmed is closed once, and only once, the warm-up has compiled every
// plugin a session starts with; by then the binary's pages that held their
// wasm have left the resident set. Not every one of them: the kernel maps
// a file's pages a large folio at a time, so reading the binary's data
// beside a module maps some of the module's pages too (a third of
// core-exec's before anything compiled it, here). A compilation without the
// release leaves all of them resident.
func TestWarmedClosesWhenTheWarmUpEnds(t *testing.T) {
	// The cache other tests share: a warm one loads in a fraction of a compile.
	h := newCoreHost(t, filepath.Join(os.TempDir(), "juju-test-wazero-cache"))
	select {
	case <-h.Warmed():
		t.Fatal("Warmed is closed before any warm-up")
	default:
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.Warm(ctx)
	select {
	case <-h.Warmed():
	case <-time.After(3 * time.Minute):
		t.Fatal("the warm-up did not end")
	}
	cores, err := core.Plugins()
	if err != nil {
		t.Fatal(err)
	}
	wasm := map[string][]byte{}
	for _, c := range cores {
		if wasm[c.Manifest.Name], err = c.Wasm(); err != nil {
			t.Fatal(err)
		}
	}
	warmed := 0
	for _, l := range h.Plugins() {
		if !l.warmsAtStart() {
			continue
		}
		warmed++
		if l.State() != plugin.Ready {
			t.Errorf("%s is %v once Warmed is closed", l.Manifest.Name, l.State())
		}
		if b, ok := wasm[l.Manifest.Name]; ok {
			if n, total, err := memtest.Resident(b); err == nil && n >= total*9/10 {
				t.Errorf("%s: %d of the %d pages of its wasm still resident once compiled", l.Manifest.Name, n, total)
			}
		}
	}
	if warmed == 0 {
		t.Fatal("no plugin warms at start")
	}
}
