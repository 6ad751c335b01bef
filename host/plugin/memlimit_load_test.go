package plugin_test

import (
	"context"
	"testing"
	"time"

	"github.com/jujutools/juju/host/plugin"
)

// A plugin's module counts toward the soft memory limit from its load to
// its close, on wazero alone (echo) and through Extism (kernel), and the
// limit in force is always the base plus twice what is loaded.
func TestLoadedModulesRaiseTheSoftLimit(t *testing.T) {
	const base = 64 << 20
	plugin.KeepSoftMemoryLimit(t, base)
	check := func(when string) int64 {
		t.Helper()
		loaded, limit := plugin.SoftLimitState()
		if want := base + plugin.KeptPerWasmByte*loaded; limit != want {
			t.Fatalf("%s: limit %d with %d bytes of wasm loaded, want %d", when, limit, loaded, want)
		}
		return loaded
	}
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: sharedCache, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, name := range []string{"echo", "kernel"} {
		_, wasm := built(t, name)
		before := check(name + " before its load")
		p := load(t, rt, name, nil)
		if err := p.Ready(ctx); err != nil {
			t.Fatal(err)
		}
		counted := plugin.CountedWasm(p)
		if counted < int64(len(wasm)) {
			t.Errorf("%s counts %d bytes, less than its %d bytes of wasm", name, counted, len(wasm))
		}
		if got := check(name + " loaded"); got != before+counted {
			t.Errorf("%s loaded: %d bytes counted, want %d", name, got, before+counted)
		}
		if err := p.Close(ctx); err != nil {
			t.Fatal(err)
		}
		if got := check(name + " closed"); got != before {
			t.Errorf("%s closed: %d bytes counted, want %d", name, got, before)
		}
	}
}
