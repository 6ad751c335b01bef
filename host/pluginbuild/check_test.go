package pluginbuild

import (
	"errors"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/wasmstop"
	"github.com/jujutools/juju/internal/wasmtest"

	"github.com/jujutools/juju/sdk/abi"
)

func TestCheckModule(t *testing.T) {
	imp := append([]byte{2}, wasmtest.Import("extism:host/env", "alloc", 0x00, 0)...)
	imp = append(imp, wasmtest.Import("wasi_snapshot_preview1", "fd_write", 0x00, 0)...)
	good := append(wasmtest.Module(imp), wasmtest.Exports("juju_describe", "juju_call")...)
	if err := CheckModule(good); err != nil {
		t.Fatalf("a good module: %v", err)
	}
	abort := append([]byte{2}, wasmtest.Import("extism:host/env", "alloc", 0x00, 0)...)
	abort = append(abort, wasmtest.Import("env", "abort", 0x00, 0)...)
	err := CheckModule(append(wasmtest.Module(abort), wasmtest.Exports("juju_describe")...))
	if !errors.Is(err, ErrModule) || !strings.Contains(err.Error(), "it imports env.abort, which juju does not provide") || !strings.Contains(err.Error(), "--use abort=") {
		t.Fatalf("env.abort: %v", err)
	}
	err = CheckModule(append(wasmtest.Module(imp), wasmtest.Exports("juju_call", "_initialize")...))
	if !errors.Is(err, ErrModule) || !strings.Contains(err.Error(), "exports no juju_describe function") || !strings.Contains(err.Error(), "juju_call, _initialize") {
		t.Fatalf("no describe: %v", err)
	}
	if strings.Contains(err.Error(), "//go:wasmexport") {
		t.Fatalf("no describe, but juju_call: a hint about exports at all: %v", err)
	}
	// Go's compiler exports only _initialize when the author marked the
	// functions //export, as TinyGo and Extism's Go PDK have it.
	err = CheckModule(append(wasmtest.Module(imp), wasmtest.Exports("_initialize")...))
	if !errors.Is(err, ErrModule) || !strings.Contains(err.Error(), "it exports _initialize. The build exported none of juju's functions: with Go, mark each with //go:wasmexport NAME") {
		t.Fatalf("no juju export at all: %v", err)
	}
	// A table past juju's bounds is refused before describe runs the
	// module (whose instance would allocate 1 GiB of juju's heap for it).
	err = CheckModule(wasmtest.TablePlugin(1<<27, wasmtest.Grower{Name: "t"}))
	if !errors.Is(err, ErrModule) || !strings.Contains(err.Error(), "table 0 starts with 134217728 entries, more than the 1048576 juju allows") {
		t.Fatalf("a table of 2^27 entries: %v", err)
	}
	if err := CheckModule(wasmtest.TablePlugin(0, wasmtest.Grower{Name: "t", Delta: 1<<32 - 16})); err != nil {
		t.Fatalf("a growing table: %v", err)
	}
	// A start section is refused before describe would instantiate the
	// module, which runs it where no deadline stops it.
	if err := CheckModule(wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "t"})); err != nil {
		t.Fatalf("the module without a start section: %v", err)
	}
	for _, abi1 := range []bool{false, true} {
		err = CheckModule(wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "t", Start: wasmtest.StartSection, ABI1: abi1}))
		if !errors.Is(err, ErrModule) || !errors.Is(err, wasmstop.ErrStart) || !strings.Contains(err.Error(), "start section") || !strings.Contains(err.Error(), "_initialize") {
			t.Fatalf("a start section (abi 1: %v): %v", abi1, err)
		}
	}
	if err := CheckModule([]byte("not wasm")); !errors.Is(err, ErrModule) {
		t.Fatalf("junk: %v", err)
	}
	d := &abi.Description{Tools: []abi.ToolSpec{{Name: "t"}}, Discoverers: []abi.DiscovererSpec{{Name: "d"}}}
	if err := CheckExports(good, d); err == nil || !strings.Contains(err.Error(), "1 discoverers but exports no juju_discover") {
		t.Fatalf("no juju_discover: %v", err)
	}
}
