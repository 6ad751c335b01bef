package plugin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/hostfns/fs"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/wasmtest"
	"github.com/jujutools/juju/sdk/abi"
)

// hostFuncs are the host functions a plugin links against: the fs ones
// over an empty workspace and a log that drops everything.
func hostFuncs(t *testing.T) []hostfns.Func { return hostFuncsOver(t, t.TempDir()) }

// helloRoot is a workspace holding a.txt, "hello".
func helloRoot(t *testing.T) string {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// hostFuncsOver is hostFuncs over the workspace root.
func hostFuncsOver(t *testing.T, root string) []hostfns.Func {
	pol, err := policy.New(policy.Config{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	log := hostfns.Func{Name: abi.FnLog, Handle: func(context.Context, []byte, []byte) ([]byte, []byte) { return []byte(`{}`), nil }}
	return append(fs.New(pol, fs.Options{}), log)
}

// load builds a test plugin and loads it into rt.
func load(t *testing.T, rt *plugin.Runtime, name string, fns []hostfns.Func) *plugin.Plugin {
	t.Helper()
	if fns == nil {
		fns = hostFuncs(t)
	}
	m, wasm := built(t, name)
	return rt.Load(m, func() ([]byte, error) { return wasm, nil }, m.Capabilities, fns)
}

// The pool under a hammer: many goroutines, calls that succeed and calls
// that trap mixed, under -race. Every call gets its own answer, no instance
// is shared by two calls, and the pool never holds more than its bound.
func TestPoolHammer(t *testing.T) {
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: t.TempDir(), Instances: 4, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	echo := load(t, rt, "echo", nil)
	trap := load(t, rt, "trap", nil)
	defer echo.Close(context.Background())
	defer trap.Close(context.Background())
	ctx := context.Background()
	if err := echo.Warm(ctx); err != nil {
		t.Fatal(err)
	}
	if err := trap.Warm(ctx); err != nil {
		t.Fatal(err)
	}

	const workers, calls = 16, 12
	var wg sync.WaitGroup
	errs := make(chan error, workers*calls)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < calls; i++ {
				if w%4 == 3 && i%3 == 0 {
					res := trap.Call(ctx, hostfns.Caller{}, "test_trap", json.RawMessage(`{}`))
					if res.Error == nil || res.Error.Code != abi.PluginFailed {
						errs <- fmt.Errorf("trap: %+v", res.Error)
					}
					continue
				}
				want := fmt.Sprintf("w%d-i%d", w, i)
				args, _ := json.Marshal(map[string]string{"text": want})
				res := echo.Call(ctx, hostfns.Caller{}, "test_echo", args)
				if res.Error != nil {
					errs <- fmt.Errorf("echo: %v", res.Error)
					continue
				}
				if len(res.Content) != 1 || res.Content[0].Text != want {
					errs <- fmt.Errorf("echo answered %+v, want %q", res.Content, want)
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := echo.Idle(); n > 4 {
		t.Errorf("pool holds %d idle instances, bound is 4", n)
	}
	if n := trap.Idle(); n != 0 {
		t.Errorf("a trapped instance went back to the pool (%d idle)", n)
	}
}

// A looping plugin is stopped at its time limit, and a cancelled caller is
// answered at once; the plugin serves again afterwards.
func TestTimeoutAndCancel(t *testing.T) {
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	loop := load(t, rt, "loop", nil) // manifest asks for a 1 s limit
	defer loop.Close(context.Background())
	ctx := context.Background()
	if err := loop.Warm(ctx); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res := loop.Call(ctx, hostfns.Caller{}, "test_loop", json.RawMessage(`{}`))
	if res.Error == nil || res.Error.Code != abi.PluginFailed || !strings.Contains(res.Error.Message, "did not finish") {
		t.Fatalf("loop: %+v", res.Error)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the loop ran %v past its 1 s limit", d)
	}
	cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	res = loop.Call(cctx, hostfns.Caller{}, "test_loop", json.RawMessage(`{}`))
	if res.Error == nil || res.Error.Code != abi.Timeout {
		t.Fatalf("cancelled call: %+v", res.Error)
	}
}

// A wasm whose bytes do not match the manifest is never compiled.
func TestHashMismatchRefused(t *testing.T) {
	rt, err := plugin.NewRuntime(plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, wasm := built(t, "echo")
	wasm = append(wasm[:len(wasm):len(wasm)], 0) // one byte more
	p := rt.Load(m, func() ([]byte, error) { return wasm, nil }, nil, nil)
	if err := p.Warm(context.Background()); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Fatalf("tampered wasm: %v", err)
	}
	res := p.Call(context.Background(), hostfns.Caller{}, "test_echo", json.RawMessage(`{"text":"x"}`))
	if res.Error == nil || res.Error.Code != abi.PluginFailed {
		t.Fatalf("call into a refused plugin: %+v", res)
	}
	if p.State() != plugin.Failed {
		t.Fatalf("state %v", p.State())
	}
}

// A module that speaks ABI 2 and imports what juju does not link (here
// env.abort) runs on wazero directly, linked to WASI and juju:channel
// alone: its instance does not start, the call fails with PLUGIN_FAILED
// naming the module it imports from, and the host lives on.
func TestDirectModuleImportsOnlyWhatJujuLinks(t *testing.T) {
	rt, err := plugin.NewRuntime(plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := built(t, "echo")
	// Types () -> () and (i64) -> i64; imports juju_output (ABI 2) and
	// env.abort; juju_call and juju_describe export the imported abort.
	b := []byte("\x00asm\x01\x00\x00\x00")
	b = append(b, 1, 9, 2, 0x60, 0, 0, 0x60, 1, 0x7e, 1, 0x7e)
	imports := append([]byte{2}, wasmtest.Import(abi.ChannelNamespace, abi.ChannelOutput, 0x00, 1)...)
	imports = append(imports, wasmtest.Import("env", "abort", 0x00, 0)...)
	b = append(append(b, 2, byte(len(imports))), imports...)
	exports := []byte{2}
	for _, name := range []string{abi.ExportCall, abi.ExportDescribe} {
		exports = append(append(append(exports, byte(len(name))), name...), 0x00, 1)
	}
	wasm := append(append(b, 7, byte(len(exports))), exports...)
	if v, err := plugin.ModuleABI(wasm); err != nil || v != abi.VersionChannel {
		t.Fatalf("the module reads as abi %d (%v)", v, err)
	}
	p := rt.LoadEmbedded(m, func() ([]byte, error) { return wasm, nil }, nil, nil, hostFuncs(t))
	defer p.Close(context.Background())
	res := p.Call(context.Background(), hostfns.Caller{}, "test_echo", json.RawMessage(`{"text":"x"}`))
	if res.Error == nil || res.Error.Code != abi.PluginFailed || !strings.Contains(res.Error.Message, "imports a function juju does not provide") || !strings.Contains(res.Error.Message, "module[env]") {
		t.Fatalf("call: %+v", res.Error)
	}
	// The runtime serves other plugins on.
	echo := load(t, rt, "echo", nil)
	defer echo.Close(context.Background())
	if res := echo.Call(context.Background(), hostfns.Caller{}, "test_echo", json.RawMessage(`{"text":"x"}`)); res.Error != nil {
		t.Fatalf("echo after the refused module: %+v", res.Error)
	}
}

// An embedded plugin's wasm is released once it is compiled, and again
// after InCache reads it, never before the compilation has read it.
func TestEmbeddedWasmReleasedAfterCompile(t *testing.T) {
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: t.TempDir(), Instances: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	m, wasm := built(t, "echo")
	var reads, releases atomic.Int32
	src := func() ([]byte, error) {
		if releases.Load() != reads.Load() {
			t.Error("the wasm was read again before the last read was released")
		}
		reads.Add(1)
		return wasm, nil
	}
	p := rt.LoadEmbedded(m, src, func() { releases.Add(1) }, m.Capabilities, hostFuncs(t))
	defer p.Close(context.Background())
	if releases.Load() != 0 {
		t.Fatal("released before any compilation")
	}
	if res := p.Call(context.Background(), hostfns.Caller{}, "test_echo", json.RawMessage(`{"text":"x"}`)); res.Error != nil {
		t.Fatal(res.Error)
	}
	if r, n := reads.Load(), releases.Load(); r != 1 || n != 1 {
		t.Fatalf("after the first call: %d reads, %d releases; want 1 and 1", r, n)
	}
	if !p.InCache() {
		t.Fatal("the compiled plugin is not in the cache")
	}
	if r, n := reads.Load(), releases.Load(); r != 2 || n != 2 {
		t.Fatalf("after InCache: %d reads, %d releases; want 2 and 2", r, n)
	}
}
