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
)

// Warmed is closed once, and only once, the warm-up has compiled every
// plugin a session starts with.
func TestWarmedClosesWhenTheWarmUpEnds(t *testing.T) {
	if _, err := core.Plugins(); errors.Is(err, core.ErrNotBuilt) {
		t.Skip("core plugins not built (run `make plugins`)")
	}
	tmp := t.TempDir()
	root := filepath.Join(tmp, "ws")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	dirs := config.Dirs{
		Config: filepath.Join(tmp, "config"), State: filepath.Join(tmp, "state"), Data: filepath.Join(tmp, "data"),
		// The cache other tests share: a warm one loads in a fraction of a compile.
		Cache: filepath.Join(os.TempDir(), "juju-test-wazero-cache"),
	}
	h, err := New(Config{Roots: []string{root}, Dirs: dirs})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
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
	warmed := 0
	for _, l := range h.Plugins() {
		if l.warmsAtStart() {
			warmed++
			if l.State() != plugin.Ready {
				t.Errorf("%s is %v once Warmed is closed", l.Manifest.Name, l.State())
			}
		}
	}
	if warmed == 0 {
		t.Fatal("no plugin warms at start")
	}
}
