package plugin_test

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/memtest"
	"github.com/jujutools/juju/sdk/abi"
)

// machineCode is the size of this process's machine code (memtest).
func machineCode(t *testing.T) int64 {
	t.Helper()
	n, err := memtest.MachineCode(0)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// settled collects until the finalizers that unmap machine code have run.
func settled(t *testing.T, want func(int64) bool) int64 {
	t.Helper()
	var n int64
	for range 50 {
		runtime.GC()
		if n = machineCode(t); want(n) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return n
}

// A closed plugin gives its machine code back, whichever way it runs (on
// wazero directly, or through Extism for an ABI 1 plugin), with an on-disk
// compilation cache and without one.
func TestClosedPluginsFreeTheirMachineCode(t *testing.T) {
	for _, tc := range []struct {
		name, plugin string
		disk         bool
	}{{"direct/disk", "echo", true}, {"extism/disk", "kernel", true}, {"direct/memory", "echo", false}} {
		t.Run(tc.name, func(t *testing.T) {
			opts := plugin.Options{Timeout: 20 * time.Second}
			rounds := 1 // a compilation in memory takes seconds under the race detector
			if tc.disk {
				opts.CacheDir, rounds = sharedCache, 2 // from the cache, once compiled
			}
			rt, err := plugin.NewRuntime(opts)
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close(context.Background())
			m, wasm := built(t, tc.plugin)
			fns := hostFuncsOver(t, helloRoot(t))
			var last int64 = -1
			before := settled(t, func(n int64) bool { ok := n == last; last = n; return ok }) // nothing left to unmap
			for round := range rounds {
				p := rt.Load(m, func() ([]byte, error) { return wasm, nil }, m.Capabilities, fns)
				if err := p.Ready(context.Background()); err != nil {
					t.Fatal(err)
				}
				loaded := machineCode(t)
				if loaded-before < 1<<20 {
					t.Fatalf("round %d: the compiled plugin added %d bytes of machine code: not a measure of it", round, loaded-before)
				}
				if err := p.Close(context.Background()); err != nil {
					t.Fatal(err)
				}
				if left := settled(t, func(n int64) bool { return n-before < 256<<10 }); left-before >= 256<<10 {
					t.Fatalf("round %d: %d bytes of machine code before, %d with the plugin, %d after it closed", round, before, loaded, left)
				}
			}
		})
	}
}

// An unloaded plugin gives its machine code back too.
func TestUnloadedPluginFreesItsMachineCode(t *testing.T) {
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: sharedCache, Timeout: 20 * time.Second, UnloadAfter: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	m, wasm := built(t, "echo")
	p := rt.Load(m, func() ([]byte, error) { return wasm, nil }, m.Capabilities, hostFuncsOver(t, helloRoot(t)))
	defer p.Close(context.Background())
	p.UnloadWhenIdle()
	var last int64 = -1
	before := settled(t, func(n int64) bool { ok := n == last; last = n; return ok })
	res := p.Call(context.Background(), hostfns.Caller{Plugin: p.Name(), Tool: "test_echo", Tier: abi.TierRead}, "test_echo", json.RawMessage(`{"text":"hi"}`))
	if res.Error != nil {
		t.Fatal(res.Error)
	}
	loaded := machineCode(t)
	if loaded-before < 1<<20 {
		t.Fatalf("the compiled plugin added %d bytes of machine code: not a measure of it", loaded-before)
	}
	waitState(t, p, plugin.NotCompiled, 5*time.Second)
	if left := settled(t, func(n int64) bool { return n-before < 256<<10 }); left-before >= 256<<10 {
		t.Fatalf("%d bytes of machine code before, %d with the plugin, %d once it was unloaded", before, loaded, left)
	}
}
