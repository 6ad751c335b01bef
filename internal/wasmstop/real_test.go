package wasmstop_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/jujutools/juju/internal/wasmstop"
)

// coreModules are the core plugins' modules as make plugins leaves them;
// a test skips when they were not built.
func coreModules(t testing.TB) map[string][]byte {
	t.Helper()
	paths, _ := filepath.Glob("../../host/core/wasm/*/plugin.wasm")
	if len(paths) == 0 {
		t.Skip("the core modules are not built (make plugins)")
	}
	mods := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		mods[filepath.Base(filepath.Dir(p))] = b
	}
	return mods
}

// Every module juju ships was instrumented when built (buildplugins): it
// passes Verify, is not instrumented twice, has its tables bounded, and
// compiles without wazero's own checks.
func TestCoreModules(t *testing.T) {
	ctx := context.Background()
	for name, mod := range coreModules(t) {
		t.Run(name, func(t *testing.T) {
			if err := wasmstop.Verify(mod); err != nil {
				t.Fatal(err)
			}
			if _, err := wasmstop.Instrument(mod); err == nil {
				t.Error("Instrument instruments a module twice")
			}
			// Go's table never grows: its maximum is its minimum, a
			// few thousand entries, which the host counts (one page).
			if out, err := wasmstop.BoundTables(mod); err != nil || &out[0] != &mod[0] {
				t.Errorf("BoundTables changed the module (%v)", err)
			}
			if n, err := wasmstop.TableBytes(mod); err != nil || n == 0 || n > 1<<16 {
				t.Errorf("TableBytes = %d, %v; want within a page", n, err)
			}
			rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(false))
			defer rt.Close(ctx)
			wasi_snapshot_preview1.MustInstantiate(ctx, rt)
			code, err := rt.CompileModule(ctx, mod)
			if err != nil {
				t.Fatalf("the module does not compile: %v", err)
			}
			if _, ok := code.ExportedFunctions()["juju_call"]; !ok && name != "core-discover" {
				t.Error("the module exports no juju_call")
			}
		})
	}
}

// What Verify costs on the core module: what decoding a module to
// instrument it costs too, which the host spares the core modules.
func BenchmarkVerifyCore(b *testing.B) {
	mod := coreModules(b)["core"]
	b.SetBytes(int64(len(mod)))
	for b.Loop() {
		if err := wasmstop.Verify(mod); err != nil {
			b.Fatal(err)
		}
	}
}
