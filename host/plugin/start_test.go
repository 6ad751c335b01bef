package plugin_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/internal/wasmstop"
	"github.com/jujutools/juju/internal/wasmtest"
	"github.com/jujutools/juju/sdk/abi"
)

// startPlugin loads a wasmtest.StartPlugin of o as an installed plugin,
// test-start, whose manifest pins it, with fns as its host functions and
// every capability they need asked for and granted.
func startPlugin(t *testing.T, rt *plugin.Runtime, o wasmtest.StartOptions, fns []hostfns.Func) *plugin.Plugin {
	t.Helper()
	wasm := wasmtest.StartPlugin(o)
	sum := sha256.Sum256(wasm)
	version := abi.VersionChannel
	if o.ABI1 {
		version = abi.VersionKernel
	}
	var caps []abi.Capability
	for _, f := range fns {
		if f.Capability != "" {
			caps = append(caps, f.Capability)
		}
	}
	m := &manifest.Manifest{ABI: version, Name: "test-start", Version: "0", Capabilities: caps,
		Wasm: manifest.Wasm{File: "plugin.wasm", SHA256: hex.EncodeToString(sum[:])}}
	p := rt.Load(m, func() ([]byte, error) { return wasm, nil }, caps, fns)
	t.Cleanup(func() { p.Close(context.Background()) })
	return p
}

// startPaths are the ways juju runs a module: directly, instrumented or
// as it is (stopped by wazero), and through Extism (ABI 1).
var startPaths = []struct {
	name         string
	abi1, asItIs bool
}{{"instrumented", false, false}, {"as it is", false, true}, {"through Extism", true, false}}

// A module with a start section is refused when it loads, whichever way
// it would run, quickly and with the reason: wazero runs a start section
// inside instantiation, where no deadline stopped it, so one that loops
// held a core and every call of the plugin for ever.
func TestStartSectionRefusedAtLoad(t *testing.T) {
	for _, path := range startPaths {
		t.Run(path.name, func(t *testing.T) {
			if path.asItIs {
				plugin.RefuseInstrumenting(t)
			}
			rt, err := plugin.NewRuntime(plugin.Options{CacheDir: t.TempDir(), Timeout: 500 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			p := startPlugin(t, rt, wasmtest.StartOptions{Tool: "t", Start: wasmtest.StartSection, ABI1: path.abi1}, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := p.Warm(ctx); !errors.Is(err, wasmstop.ErrStart) || !strings.Contains(err.Error(), "start section") {
				t.Fatalf("Warm: %v, want the start section refused", err)
			}
			start := time.Now()
			res := p.Call(ctx, hostfns.Caller{}, "t", json.RawMessage(`{}`))
			if res.Error == nil || res.Error.Code != abi.PluginFailed {
				t.Fatalf("call: %+v, want PLUGIN_FAILED", res.Error)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("the call took %v", d)
			}
		})
	}
}

// A new instance's start (the guest runtime's _initialize and the warm-up
// call) runs within the deadline of the call it is made for, not beside
// it under a limit of its own of 10 s or more: a start that loops fails
// the call at its limit, and a cancelled call stops the start at once.
func TestInstanceStartIsBoundedByTheCall(t *testing.T) {
	for _, path := range startPaths {
		t.Run(path.name, func(t *testing.T) {
			if path.asItIs {
				plugin.RefuseInstrumenting(t)
			}
			t.Run("deadline", func(t *testing.T) {
				rt, err := plugin.NewRuntime(plugin.Options{CacheDir: t.TempDir(), Timeout: 500 * time.Millisecond})
				if err != nil {
					t.Fatal(err)
				}
				p := startPlugin(t, rt, wasmtest.StartOptions{Tool: "t", Start: wasmtest.StartInitialize, ABI1: path.abi1}, nil)
				ctx := context.Background()
				if err := p.Warm(ctx); err != nil {
					t.Fatal(err)
				}
				for range 2 { // the first waits for the warm-up, the second starts its own
					start := time.Now()
					res := p.Call(ctx, hostfns.Caller{}, "t", json.RawMessage(`{}`))
					if res.Error == nil || res.Error.Code != abi.PluginFailed || !strings.Contains(res.Error.Message, "within its limit of 500ms") {
						t.Fatalf("call: %+v, want PLUGIN_FAILED at the limit", res.Error)
					}
					if d := time.Since(start); d > 3*time.Second {
						t.Fatalf("a call limited to 500ms took %v", d)
					}
				}
			})
			t.Run("cancel", func(t *testing.T) {
				rt, err := plugin.NewRuntime(plugin.Options{CacheDir: t.TempDir(), Timeout: 30 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				// A time bomb: the warm-up starts an instance, and past the
				// bomb's time every start and call loops.
				bomb := time.Now().Add(time.Second)
				p := startPlugin(t, rt, wasmtest.StartOptions{Tool: "t", Start: wasmtest.StartInitialize, After: bomb, ABI1: path.abi1}, nil)
				ctx := context.Background()
				if err := p.Ready(ctx); err != nil {
					t.Fatal(err)
				}
				if p.Idle() != 1 {
					t.Fatalf("the warm-up left %d instances idle, want 1", p.Idle())
				}
				time.Sleep(time.Until(bomb) + 100*time.Millisecond)
				// The first call takes the warm instance and loops in it;
				// the second starts an instance, which loops in its start.
				for i := range 2 {
					cctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
					start := time.Now()
					res := p.Call(cctx, hostfns.Caller{}, "t", json.RawMessage(`{}`))
					cancel()
					if res.Error == nil || res.Error.Code != abi.Timeout {
						t.Fatalf("call %d: %+v, want TIMEOUT", i, res.Error)
					}
					if d := time.Since(start); d > 3*time.Second {
						t.Fatalf("call %d, cancelled after 300ms, took %v", i, d)
					}
					if i == 1 && !strings.Contains(res.Error.Message, "starting") {
						t.Errorf("call %d: %s, want the start named", i, res.Error.Message)
					}
				}
			})
		})
	}
}

// An instance's start runs as the plugin: its host calls carry a caller
// naming it, with no tool and no tier, whichever call the instance is made
// for, so juju_log charges its lines to the plugin's budget and a
// capability needing a tier is refused; the tool's own call carries the
// tool's caller.
func TestInstanceStartRunsAsThePlugin(t *testing.T) {
	var mu sync.Mutex
	var seen []hostfns.Caller
	record := func(ctx context.Context, _, _ []byte) ([]byte, []byte) {
		c, _ := hostfns.CallerFrom(ctx)
		mu.Lock()
		seen = append(seen, c)
		mu.Unlock()
		return []byte(`{}`), nil
	}
	taken := func() []hostfns.Caller {
		mu.Lock()
		defer mu.Unlock()
		s := seen
		seen = nil
		return s
	}
	probe := hostfns.Func{Name: "juju_test_probe", Handle: record}
	write := hostfns.Func{Name: "juju_test_write", Capability: abi.CapFSWrite, Handle: record}
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: t.TempDir(), Instances: 1, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	own := hostfns.Caller{Plugin: "test-start"}
	tool := hostfns.Caller{Plugin: "test-start", Tool: "t", Tier: abi.TierEdit, CallID: "c1"}
	for _, fn := range []hostfns.Func{probe, write} {
		t.Run(fn.Name, func(t *testing.T) {
			p := startPlugin(t, rt, wasmtest.StartOptions{Tool: "t", Probe: fn.Name}, []hostfns.Func{probe, write})
			if err := p.Ready(context.Background()); err != nil {
				t.Fatal(err)
			}
			// The warm-up: the start, then the warm-up call as the plugin.
			want := []hostfns.Caller{own, own}
			if fn.Capability != "" {
				want = nil // refused: no tier
			}
			if got := taken(); !slices.Equal(got, want) {
				t.Errorf("the warm-up's host calls saw %+v, want %+v", got, want)
			}
			// A call that starts an instance: the start as the plugin, then
			// the tool's call as the tool.
			plugin.DropIdle(p)
			if res := p.Call(context.Background(), tool, "t", json.RawMessage(`{}`)); res.Error != nil {
				t.Fatalf("call: %+v", res.Error)
			}
			want = []hostfns.Caller{own, tool}
			if fn.Capability != "" {
				want = []hostfns.Caller{tool}
			}
			if got := taken(); !slices.Equal(got, want) {
				t.Errorf("a call starting an instance: its host calls saw %+v, want %+v", got, want)
			}
		})
	}
}
