package pluginbuild

import (
	"errors"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// module builds a wasm binary with the given import section body.
func module(imports []byte) []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	b = append(b, 1, 4, 1, 0x60, 0, 0) // a type section: one func type () -> ()
	b = append(b, 2, byte(len(imports)))
	return append(b, imports...)
}

func importEntry(mod, name string, desc ...byte) []byte {
	b := append([]byte{byte(len(mod))}, mod...)
	b = append(b, byte(len(name)))
	b = append(b, name...)
	return append(b, desc...)
}

// exportSection is an export section naming functions.
func exportSection(names ...string) []byte {
	body := []byte{byte(len(names))}
	for _, n := range names {
		body = append(body, byte(len(n)))
		body = append(body, n...)
		body = append(body, 0x00, 0) // a function, index 0
	}
	return append([]byte{7, byte(len(body))}, body...)
}

func TestCheckModule(t *testing.T) {
	imp := append([]byte{2}, importEntry("extism:host/env", "alloc", 0x00, 0)...)
	imp = append(imp, importEntry("wasi_snapshot_preview1", "fd_write", 0x00, 0)...)
	good := append(module(imp), exportSection("juju_describe", "juju_call")...)
	if err := CheckModule(good); err != nil {
		t.Fatalf("a good module: %v", err)
	}
	abort := append([]byte{2}, importEntry("extism:host/env", "alloc", 0x00, 0)...)
	abort = append(abort, importEntry("env", "abort", 0x00, 0)...)
	err := CheckModule(append(module(abort), exportSection("juju_describe")...))
	if !errors.Is(err, ErrModule) || !strings.Contains(err.Error(), "it imports env.abort, which juju does not provide") || !strings.Contains(err.Error(), "--use abort=") {
		t.Fatalf("env.abort: %v", err)
	}
	err = CheckModule(append(module(imp), exportSection("juju_call", "_initialize")...))
	if !errors.Is(err, ErrModule) || !strings.Contains(err.Error(), "exports no juju_describe function") || !strings.Contains(err.Error(), "juju_call, _initialize") {
		t.Fatalf("no describe: %v", err)
	}
	if err := CheckModule([]byte("not wasm")); !errors.Is(err, ErrModule) {
		t.Fatalf("junk: %v", err)
	}
	d := &abi.Description{Tools: []abi.ToolSpec{{Name: "t"}}, Discoverers: []abi.DiscovererSpec{{Name: "d"}}}
	if err := CheckExports(good, d); err == nil || !strings.Contains(err.Error(), "1 discoverers but exports no juju_discover") {
		t.Fatalf("no juju_discover: %v", err)
	}
}
