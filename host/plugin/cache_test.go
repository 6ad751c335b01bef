package plugin_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/jujutools/juju/host/plugin"
)

func testWasm(t *testing.T, name string) []byte {
	t.Helper()
	_, wasm := built(t, name)
	return wasm
}

// The compiled code of a module is found in wazero's cache under the name
// juju computes for it, and a prune removes the code of modules no longer
// in use, keeping those in use (and the small Extism kernel, which plugins
// run through Extism compile; these two run on wazero alone).
func TestCacheAttribution(t *testing.T) {
	cache := t.TempDir()
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: cache, Instances: 1})
	if err != nil {
		t.Fatal(err)
	}
	echo, reader := testWasm(t, "echo"), testWasm(t, "reader")
	if plugin.InCache(cache, echo) {
		t.Fatal("an empty cache holds echo")
	}
	for _, name := range []string{"echo", "reader"} {
		if err := load(t, rt, name, nil).Warm(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	rt.Close(context.Background())
	if !plugin.InCache(cache, echo) || !plugin.InCache(cache, reader) {
		t.Fatal("compiled plugins are not found in the cache")
	}
	// Just compiled: within the grace, nothing goes.
	res, err := plugin.PruneCache(cache, [][]byte{echo}, time.Now())
	if err != nil || res.Removed != 0 || res.Unattributed {
		t.Fatalf("prune within the grace: %+v %v", res, err)
	}
	// Past it, reader's code goes; echo's stays. A folder of another wazero
	// version goes too.
	old := filepath.Join(cache, "wazero-v0.0.1-"+goarch()+"-"+goos())
	os.MkdirAll(old, 0o700)
	os.WriteFile(filepath.Join(old, "x"), make([]byte, 10), 0o600)
	past := time.Now().Add(2 * plugin.CachePruneGrace)
	res, err = plugin.PruneCache(cache, [][]byte{echo}, past)
	if err != nil || res.Removed != 2 || res.Kept != 1 || res.Unattributed {
		t.Fatalf("prune: %+v %v", res, err)
	}
	if plugin.InCache(cache, reader) || !plugin.InCache(cache, echo) {
		t.Fatal("the prune removed the wrong code")
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatal("another wazero version's folder is left")
	}
	// When no module in use is found, nothing is attributed, nothing goes.
	res, err = plugin.PruneCache(cache, [][]byte{reader}, past)
	if err != nil || res.Removed != 0 || !res.Unattributed {
		t.Fatalf("unattributed prune: %+v %v", res, err)
	}
}

func goarch() string { return runtime.GOARCH }
func goos() string   { return runtime.GOOS }
