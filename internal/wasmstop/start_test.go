package wasmstop_test

import (
	"context"
	"errors"
	"testing"

	"github.com/tetratelabs/wazero"

	"github.com/jujutools/juju/internal/wasmstop"
	"github.com/jujutools/juju/internal/wasmtest"
)

// A module with a start section is refused by every function of the
// package: wazero runs its start inside instantiation, before the stop
// flag can be set, so nothing would stop one that loops. The same module
// without the section is instrumented.
func TestStartSectionRefused(t *testing.T) {
	spins := wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "t", Start: wasmtest.StartSection})
	if _, err := wasmstop.Instrument(wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "t"})); err != nil {
		t.Fatalf("the module without its start section: %v", err)
	}
	// The module is valid wasm: wazero compiles it (and would spin in it).
	rt := wazero.NewRuntime(context.Background())
	defer rt.Close(context.Background())
	if _, err := rt.CompileModule(context.Background(), spins); err != nil {
		t.Fatalf("wazero refuses the module: %v", err)
	}
	if out, err := wasmstop.Instrument(spins); !errors.Is(err, wasmstop.ErrStart) || out != nil {
		t.Errorf("Instrument: %d bytes, %v; want ErrStart", len(out), err)
	}
	if out, err := wasmstop.BoundTables(spins); !errors.Is(err, wasmstop.ErrStart) || out != nil {
		t.Errorf("BoundTables: %d bytes, %v; want ErrStart", len(out), err)
	}
	if _, err := wasmstop.TableBytes(spins); !errors.Is(err, wasmstop.ErrStart) {
		t.Errorf("TableBytes: %v; want ErrStart", err)
	}
	if err := wasmstop.Verify(spins); !errors.Is(err, wasmstop.ErrStart) {
		t.Errorf("Verify: %v; want ErrStart", err)
	}
}
