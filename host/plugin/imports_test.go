package plugin

import (
	"reflect"
	"testing"

	"github.com/jujutools/juju/internal/wasmtest"
)

func TestImportedFuncs(t *testing.T) {
	var imp []byte
	imp = append(imp, 5)
	imp = append(imp, wasmtest.Import("extism:host/user", "juju_log", 0x00, 0)...)
	imp = append(imp, wasmtest.Import("env", "memory", 0x02, 1, 1, 2)...)
	imp = append(imp, wasmtest.Import("extism:host/env", "alloc", 0x00, 0)...)
	imp = append(imp, wasmtest.Import("g", "x", 0x03, 0x7f, 0)...)
	imp = append(imp, wasmtest.Import("extism:host/user", "juju_fs_read", 0x00, 0)...)
	got, err := ImportedFuncs(wasmtest.Module(imp), "extism:host/user")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"juju_log", "juju_fs_read"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestImportedFuncsRejectsJunk(t *testing.T) {
	for name, b := range map[string][]byte{
		"empty":       nil,
		"not wasm":    []byte("\x7fELF\x02\x01\x01\x00"),
		"cut section": append([]byte("\x00asm\x01\x00\x00\x00"), 2, 50, 1),
		"cut entry":   wasmtest.Module([]byte{1, 16, 'e'}),
		"bad kind":    wasmtest.Module(append([]byte{1}, wasmtest.Import("a", "b", 0x09)...)),
		"huge leb":    wasmtest.Module([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}),
	} {
		if got, err := ImportedFuncs(b, "a"); err == nil {
			t.Errorf("%s: no error, got %v", name, got)
		}
	}
}

func FuzzImportedFuncs(f *testing.F) {
	f.Add(wasmtest.Module(append([]byte{1}, wasmtest.Import("extism:host/user", "juju_log", 0x00, 0)...)))
	f.Add([]byte("\x00asm\x01\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ImportedFuncs(b, "extism:host/user") // must not panic
	})
}
