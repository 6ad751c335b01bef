package plugin_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// gatedRead is hostFuncsOver whose fs.read, while the gate is set, waits
// for it to open.
type gatedRead struct {
	mu      sync.Mutex
	gate    chan struct{}
	arrived chan struct{} // one per call waiting at the gate
}

func (g *gatedRead) funcs(t *testing.T) []hostfns.Func {
	fns := hostFuncsOver(t, helloRoot(t))
	for i, f := range fns {
		if f.Name != abi.FnFSRead {
			continue
		}
		read := f.Handle
		fns[i].Handle = func(ctx context.Context, h, b []byte) ([]byte, []byte) {
			g.mu.Lock()
			gate, arrived := g.gate, g.arrived
			g.mu.Unlock()
			if gate != nil {
				arrived <- struct{}{}
				<-gate
			}
			return read(ctx, h, b)
		}
	}
	return fns
}

// hold sets the gate, runs calls (which must make n reads), and returns
// once n of them wait at it; open lets them on.
func (g *gatedRead) hold(n int, calls func()) (open func()) {
	g.mu.Lock()
	gate, arrived := make(chan struct{}), make(chan struct{}, n)
	g.gate, g.arrived = gate, arrived
	g.mu.Unlock()
	calls()
	for range n {
		<-arrived
	}
	return func() {
		g.mu.Lock()
		g.gate, g.arrived = nil, nil
		g.mu.Unlock()
		close(gate)
	}
}

// waitState waits until p is in state want, for up to wait.
func waitState(t *testing.T, p *plugin.Plugin, want plugin.State, wait time.Duration) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for p.State() != want && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if s := p.State(); s != want {
		t.Fatalf("the plugin is %s, want %s", s, want)
	}
}

// A plugin compiled on demand is unloaded once unused for UnloadAfter, never
// while a call runs in it, and compiled again by its next call; a plugin
// not marked stays loaded. Both ways of running a plugin: on wazero
// directly (ABI 2) and through Extism (ABI 1).
func TestIdlePluginIsUnloaded(t *testing.T) {
	for _, tc := range []struct{ plugin, tool string }{{"shared", "test_shared_read"}, {"kernel", "test_kernel_read"}} {
		t.Run(tc.plugin, func(t *testing.T) {
			const after = 600 * time.Millisecond
			rt, err := plugin.NewRuntime(plugin.Options{CacheDir: sharedCache, Timeout: 20 * time.Second, UnloadAfter: after})
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close(context.Background())
			var g gatedRead
			fns := g.funcs(t)
			m, wasm := built(t, tc.plugin)
			m.Capabilities = []abi.Capability{abi.CapFSRead}
			src := func() ([]byte, error) { return wasm, nil }
			onDemand := rt.Load(m, src, m.Capabilities, fns)
			defer onDemand.Close(context.Background())
			onDemand.UnloadWhenIdle()
			kept := *m
			kept.Name += "-kept"
			always := rt.Load(&kept, src, kept.Capabilities, fns)
			defer always.Close(context.Background())

			call := func(p *plugin.Plugin) {
				t.Helper()
				args, _ := json.Marshal(map[string]string{"path": "a.txt"})
				res := p.Call(context.Background(), hostfns.Caller{Plugin: p.Name(), Tool: tc.tool, Tier: abi.TierRead}, tc.tool, args)
				if res.Error != nil || len(res.Content) != 1 {
					t.Fatalf("call: %+v", res)
				}
			}
			if s := onDemand.State(); s != plugin.NotCompiled {
				t.Fatalf("marked before any call, the plugin is %s", s)
			}
			call(always)
			call(onDemand)
			if s := onDemand.State(); s != plugin.Ready {
				t.Fatalf("after a call the plugin is %s", s)
			}

			// A call that runs longer than UnloadAfter keeps it loaded.
			done := make(chan struct{})
			release := g.hold(1, func() { go func() { defer close(done); call(onDemand) }() })
			time.Sleep(2 * after)
			if s := onDemand.State(); s != plugin.Ready {
				t.Fatalf("unloaded under a running call: %s", s)
			}
			release()
			<-done
			time.Sleep(after / 4)
			if s := onDemand.State(); s != plugin.Ready {
				t.Fatalf("unloaded %s after its last call, before UnloadAfter", after/4)
			}

			waitState(t, onDemand, plugin.NotCompiled, after+5*time.Second)
			if n := onDemand.Idle(); n != 0 {
				t.Fatalf("%d instances left in the pool of an unloaded plugin", n)
			}
			if s := always.State(); s != plugin.Ready {
				t.Fatalf("the plugin not marked was unloaded too: %s", s)
			}

			// The next call loads it again, and it is unloaded again after.
			call(onDemand)
			if s := onDemand.State(); s != plugin.Ready || onDemand.CompileTime() == 0 {
				t.Fatalf("after its next call the plugin is %s (compiled in %s)", s, onDemand.CompileTime())
			}
			waitState(t, onDemand, plugin.NotCompiled, after+5*time.Second)
		})
	}
}

// Calls side by side with the unloading never fail: each runs in the
// compilation it found or starts the next one.
func TestCallsRaceTheUnload(t *testing.T) {
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: sharedCache, Timeout: 20 * time.Second, UnloadAfter: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	m, wasm := built(t, "shared")
	m.Capabilities = []abi.Capability{abi.CapFSRead}
	p := rt.Load(m, func() ([]byte, error) { return wasm, nil }, m.Capabilities, hostFuncsOver(t, helloRoot(t)))
	defer p.Close(context.Background())
	p.UnloadWhenIdle()
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for i := range 6 {
				res := p.Call(context.Background(), hostfns.Caller{Plugin: p.Name(), Tool: "test_shared_read", Tier: abi.TierRead}, "test_shared_read", json.RawMessage(`{"path":"a.txt"}`))
				if res.Error != nil || len(res.Content) != 1 || res.Content[0].Text != "read 5 bytes" {
					t.Errorf("call %d: %+v", i, res)
					return
				}
				time.Sleep(time.Duration(i%3) * 5 * time.Millisecond) // now and then past UnloadAfter
			}
		})
	}
	wg.Wait()
	waitState(t, p, plugin.NotCompiled, 5*time.Second)
}
