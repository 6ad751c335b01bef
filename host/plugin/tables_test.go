package plugin_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/internal/wasmstop"
	"github.com/jujutools/juju/internal/wasmtest"
	"github.com/jujutools/juju/sdk/abi"
)

// rawPlugin loads wasm, of ABI version, as an installed plugin whose
// manifest pins it, under a memory cap of memMiB (the default if 0).
func rawPlugin(t *testing.T, rt *plugin.Runtime, version int, wasm []byte, memMiB int) *plugin.Plugin {
	t.Helper()
	sum := sha256.Sum256(wasm)
	m := &manifest.Manifest{ABI: version, Name: "test-tables", Version: "0",
		Wasm: manifest.Wasm{File: "plugin.wasm", SHA256: hex.EncodeToString(sum[:])}}
	if memMiB > 0 {
		m.Limits = &manifest.Limits{MemoryMiB: memMiB}
	}
	p := rt.Load(m, func() ([]byte, error) { return wasm, nil }, nil, hostFuncs(t))
	t.Cleanup(func() { p.Close(context.Background()) })
	return p
}

// A plugin growing its table past the bound gets -1 from table.grow, and
// juju's heap nothing: unbounded, a grow by 2^32-16 made wazero ask Go for
// 32 GiB, and Go's out-of-memory error ended juju (the test process
// here). A grow within the bound works. So whether juju instruments the
// module or runs it as it is.
func TestTableGrowIsBounded(t *testing.T) {
	wasm := wasmtest.TablePlugin(0,
		wasmtest.Grower{Name: "huge", Delta: 1<<32 - 16},
		wasmtest.Grower{Name: "a_gig", Delta: 1 << 27},
		wasmtest.Grower{Name: "ok", Delta: 16},
		wasmtest.Grower{Name: "all", Delta: wasmstop.MaxTableEntries - 16})
	for _, instrumented := range []bool{true, false} {
		t.Run(map[bool]string{true: "instrumented", false: "as it is"}[instrumented], func(t *testing.T) {
			if !instrumented {
				plugin.RefuseInstrumenting(t)
			}
			rt, err := plugin.NewRuntime(plugin.Options{CacheDir: t.TempDir(), Instances: 1})
			if err != nil {
				t.Fatal(err)
			}
			p := rawPlugin(t, rt, abi.VersionChannel, wasm, 0)
			for _, c := range []struct{ tool, want string }{
				{"huge", "refused"}, {"a_gig", "refused"}, {"ok", "grown"}, {"huge", "refused"},
				{"all", "grown"}, {"ok", "refused"},
			} {
				res := p.Call(context.Background(), hostfns.Caller{}, c.tool, json.RawMessage(`{}`))
				if res.Error != nil || len(res.Content) != 1 || res.Content[0].Text != c.want {
					t.Fatalf("%s: %+v %+v; want %q", c.tool, res.Error, res.Content, c.want)
				}
			}
			if got := plugin.StopsByGlobal(p); got != instrumented {
				t.Errorf("stopped by its global: %v", got)
			}
		})
	}
}

// What a module's tables may hold counts against its memory cap: a table
// that may grow to MaxTableEntries (8 MiB) leaves nothing of an 8 MiB cap,
// and the plugin is refused with a reason; under 9 MiB it loads. A module
// whose tables cannot be bounded is refused, whichever way juju runs it
// (directly, or through Extism for ABI 1).
func TestTablesCountAgainstTheMemoryCap(t *testing.T) {
	rt, err := plugin.NewRuntime(plugin.Options{CacheDir: t.TempDir(), Instances: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	grows := wasmtest.TablePlugin(0, wasmtest.Grower{Name: "ok", Delta: 16})
	err = rawPlugin(t, rt, abi.VersionChannel, grows, 8).Warm(ctx)
	if err == nil || !strings.Contains(err.Error(), "tables may hold 8 MiB, all of its memory limit of 8 MiB") {
		t.Errorf("a growing table under an 8 MiB cap: %v", err)
	}
	p := rawPlugin(t, rt, abi.VersionChannel, grows, 9)
	if err := p.Warm(ctx); err != nil {
		t.Fatalf("a growing table under a 9 MiB cap: %v", err)
	}
	if res := p.Call(ctx, hostfns.Caller{}, "ok", json.RawMessage(`{}`)); res.Error != nil {
		t.Fatalf("a growing table under a 9 MiB cap: %+v", res.Error)
	}

	huge := wasmtest.TablePlugin(1 << 27)
	err = rawPlugin(t, rt, abi.VersionChannel, huge, 0).Warm(ctx)
	if !errors.Is(err, wasmstop.ErrTables) {
		t.Errorf("a table of 2^27 entries: %v, want ErrTables", err)
	}
	res := rawPlugin(t, rt, abi.VersionChannel, huge, 0).Call(ctx, hostfns.Caller{}, "ok", json.RawMessage(`{}`))
	if res.Error == nil || res.Error.Code != abi.PluginFailed {
		t.Errorf("a call of a plugin whose table is past the bound: %+v, want PLUGIN_FAILED", res.Error)
	}

	// ABI 1: no juju:channel import, run through Extism.
	kernel := func(min uint32, grows bool) []byte {
		code := wasmtest.Body(0x41, 0x00, 0x0b)
		if grows {
			code = wasmtest.Body(0xd0, 0x70, 0x41, 0x01, 0xfc, 0x0f, 0x00, 0x0b)
		}
		return wasmtest.Binary(
			wasmtest.Section(1, wasmtest.Vec([]byte{0x60, 0x00, 0x01, 0x7f})...),
			wasmtest.Section(3, wasmtest.Vec([]byte{0x00})...),
			wasmtest.Section(4, wasmtest.Vec(append([]byte{0x70, 0x00}, uleb(min)...))...),
			wasmtest.Section(5, wasmtest.Vec([]byte{0x00, 0x01})...),
			wasmtest.Section(7, wasmtest.Vec(append(wasmtest.Name(abi.ExportDescribe), 0x00, 0x00))...),
			wasmtest.Section(10, wasmtest.Vec(code)...))
	}
	if err := rawPlugin(t, rt, abi.VersionKernel, kernel(1<<27, false), 0).Warm(ctx); !errors.Is(err, wasmstop.ErrTables) {
		t.Errorf("through Extism, a table of 2^27 entries: %v, want ErrTables", err)
	}
	if err := rawPlugin(t, rt, abi.VersionKernel, kernel(0, true), 8).Warm(ctx); err == nil || !strings.Contains(err.Error(), "tables may hold") {
		t.Errorf("through Extism, a growing table under an 8 MiB cap: %v", err)
	}
	if err := rawPlugin(t, rt, abi.VersionKernel, kernel(0, true), 9).Warm(ctx); err != nil {
		t.Errorf("through Extism, a growing table under a 9 MiB cap: %v", err)
	}
}

func uleb(v uint32) []byte {
	var b []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
