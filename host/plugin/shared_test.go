package plugin_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

// Two plugins that run one module (as core and core-exec do) share its
// compilation, and nothing else: each call runs in an instance of its own
// plugin, under that plugin's grants, whichever tool's code it runs. The
// module stays until the last of them closes.
func TestPluginsShareAModuleNotTheirGrants(t *testing.T) {
	fns := hostFuncsOver(t, helloRoot(t))
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: t.TempDir(), Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())

	m, wasm := built(t, "shared")
	src := func() ([]byte, error) { return wasm, nil }
	readerM := *m
	readerM.Name = "test-shared-reader"
	readerM.Capabilities = []abi.Capability{abi.CapFSRead}
	own := rt.Load(m, src, nil, fns)
	reader := rt.Load(&readerM, src, readerM.Capabilities, fns)

	// Both compile at once: one compiles, the other waits for it.
	ctx := context.Background()
	var wg sync.WaitGroup
	for _, p := range []*plugin.Plugin{own, reader} {
		wg.Go(func() {
			if err := p.Ready(ctx); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if !plugin.SameModule(own, reader) || rt.SharedModules() != 1 {
		t.Fatalf("the two plugins do not share one module (%d held)", rt.SharedModules())
	}

	call := func(p *plugin.Plugin, tool string) *abi.CallResult {
		args, _ := json.Marshal(map[string]string{"path": "a.txt"})
		return p.Call(ctx, hostfns.Caller{Plugin: p.Name(), Tool: tool, Tier: abi.TierRead}, tool, args)
	}
	granted := func(res *abi.CallResult) bool {
		return res.Error == nil && len(res.Content) == 1 && res.Content[0].Text == "read 5 bytes"
	}
	denied := func(res *abi.CallResult) bool { return res.Error != nil && res.Error.Code == abi.CapabilityDenied }

	// Calls into both, side by side: the grants follow the plugin whose
	// instance runs the call, even for the same tool's code.
	var calls sync.WaitGroup
	for range 4 {
		calls.Go(func() {
			for range 10 {
				if res := call(reader, "test_shared_read_granted"); !granted(res) {
					t.Errorf("the plugin granted fs.read: %+v", res)
				}
				if res := call(own, "test_shared_read"); !denied(res) {
					t.Errorf("the plugin granted nothing read: %+v", res)
				}
				if res := call(own, "test_shared_read_granted"); !denied(res) {
					t.Errorf("the other plugin's tool, called in the plugin granted nothing, read: %+v", res)
				}
				if res := call(reader, "test_shared_read"); !granted(res) {
					t.Errorf("the plugin granted fs.read, running the other's tool: %+v", res)
				}
			}
		})
	}
	calls.Wait()

	// Another memory cap is another compilation.
	capped := *m
	capped.Name = "test-shared-capped"
	capped.Limits = &manifest.Limits{MemoryMiB: 64}
	other := rt.Load(&capped, src, nil, fns)
	if err := other.Warm(ctx); err != nil {
		t.Fatal(err)
	}
	if plugin.SameModule(own, other) || rt.SharedModules() != 2 {
		t.Fatalf("a plugin under another memory cap shares the module (%d held)", rt.SharedModules())
	}
	if err := other.Close(ctx); err != nil {
		t.Fatal(err)
	}

	// Closing one leaves the module to the other.
	if err := own.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if res := call(reader, "test_shared_read_granted"); !granted(res) {
		t.Fatalf("after the other plugin closed: %+v", res)
	}
	if rt.SharedModules() != 1 {
		t.Fatalf("%d modules held after one of two plugins closed", rt.SharedModules())
	}
	if err := reader.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if rt.SharedModules() != 0 {
		t.Fatalf("%d modules held after every plugin closed", rt.SharedModules())
	}
}

// A compilation that fails fails every plugin that waited for it, and
// leaves nothing behind: a later load compiles afresh.
func TestSharedCompilationFailure(t *testing.T) {
	rt, err := plugin.NewRuntime(plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	m, wasm := built(t, "shared")
	src := func() ([]byte, error) { return wasm, nil }
	// Go's runtime needs more than 1 MiB of memory from the start: under
	// that cap the module does not compile.
	tiny := *m
	tiny.Limits = &manifest.Limits{MemoryMiB: 1}
	tiny2 := tiny
	tiny2.Name = "test-shared-tiny"
	a, b := rt.Load(&tiny, src, nil, nil), rt.Load(&tiny2, src, nil, nil)
	var wg sync.WaitGroup
	for _, p := range []*plugin.Plugin{a, b} {
		wg.Go(func() {
			if err := p.Warm(context.Background()); err == nil {
				t.Errorf("%s compiled under a 1 MiB cap", p.Name())
			}
		})
	}
	wg.Wait()
	if rt.SharedModules() != 0 {
		t.Fatalf("%d modules held after a failed compilation", rt.SharedModules())
	}
	a.Close(context.Background())
	b.Close(context.Background())
	c := rt.Load(m, src, nil, nil)
	if err := c.Warm(context.Background()); err != nil {
		t.Fatalf("the module under the default cap: %v", err)
	}
	if rt.SharedModules() != 1 {
		t.Fatalf("%d modules held", rt.SharedModules())
	}
	c.Close(context.Background())
}

// Embedded plugins, whose bytes are not hashed again, share a module only
// when they read the very same bytes: a copy, even an equal one, is
// compiled apart (and so a plugin whose manifest's hash lied could never
// take over another's compilation).
func TestEmbeddedPluginsShareOnlyTheSameBytes(t *testing.T) {
	rt, err := plugin.NewRuntime(plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	m, wasm := built(t, "shared")
	src := func() ([]byte, error) { return wasm, nil }
	copied := append([]byte(nil), wasm...)
	second := *m
	second.Name = "test-shared-second"
	third := *m
	third.Name = "test-shared-third"
	a := rt.LoadEmbedded(m, src, nil, nil, nil)
	b := rt.LoadEmbedded(&second, src, nil, nil, nil)
	c := rt.LoadEmbedded(&third, func() ([]byte, error) { return copied, nil }, nil, nil, nil)
	for _, p := range []*plugin.Plugin{a, b, c} {
		if err := p.Warm(context.Background()); err != nil {
			t.Fatal(err)
		}
		defer p.Close(context.Background())
	}
	if !plugin.SameModule(a, b) {
		t.Error("two embedded plugins over the same bytes compiled apart")
	}
	if plugin.SameModule(a, c) || rt.SharedModules() != 2 {
		t.Errorf("an embedded plugin over a copy shares the module (%d held)", rt.SharedModules())
	}
}
