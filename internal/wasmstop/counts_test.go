package wasmstop_test

import (
	"context"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/tetratelabs/wazero"

	"github.com/jujutools/juju/internal/wasmstop"
	"github.com/jujutools/juju/internal/wasmtest"
)

func uleb(v uint32) []byte { return binary.AppendUvarint(nil, uint64(v)) }

// nameSection is a name section's body holding one subsection.
func nameSection(id byte, sub []byte) []byte {
	return cat(wasmtest.Name("name"), []byte{id}, uleb(uint32(len(sub))), sub)
}

// A module is refused, before wazero decodes it, when it declares counts
// its bytes cannot hold or a function of more than MaxLocals locals:
// wazero allocates by those counts first (a hundred bytes took 5 GB, or
// ended the process), and CheckCounts allocates nothing for them. A
// module within the bounds, the core modules among them, passes, and
// wazero compiles it.
func TestCheckCounts(t *testing.T) {
	ok := []struct {
		name string
		mod  []byte
	}{
		{"plain", wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "t"})},
		{"MaxModuleLocals locals", manyLocals(wasmstop.MaxModuleLocals / wasmstop.MaxLocals)},
		{"MaxGlobals globals", globals(wasmstop.MaxGlobals)},
		{"MaxElements entries", elements(wasmstop.MaxElements/2, wasmstop.MaxElements/2)},
		{"MaxLocals locals", wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "t", Locals: wasmstop.MaxLocals})},
		{"names", wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "t",
			Custom: nameSection(2, cat(uleb(1), uleb(0), uleb(1), uleb(0), wasmtest.Name("x")))})},
	}
	for _, tc := range ok {
		if err := wasmstop.CheckCounts(tc.mod); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		rt := wazero.NewRuntime(context.Background())
		if _, err := rt.CompileModule(context.Background(), tc.mod); err != nil {
			t.Errorf("%s: wazero: %v", tc.name, err)
		}
		rt.Close(context.Background())
	}

	const huge = 1<<32 - 1
	typ := wasmtest.Section(1, cat(uleb(1), []byte{0x60}, uleb(0), uleb(0))...)
	bad := []struct {
		name string
		mod  []byte
	}{
		{"MaxLocals+1 locals", wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "t", Locals: wasmstop.MaxLocals + 1})},
		{"2^32-1 locals", wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "t", Locals: huge})},
		{"locals in two groups", wasmtest.Binary(typ, wasmtest.Section(3, 1, 0),
			wasmtest.Section(10, cat(uleb(1), uleb(9), uleb(2), uleb(1<<30), []byte{0x7e}, uleb(1<<30), []byte{0x7e, 0x0b})...))},
		{"local names", wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "t",
			Custom: nameSection(2, cat(uleb(1), uleb(0), uleb(huge), uleb(0), wasmtest.Name("x")))})},
		{"MaxLocals in many functions", manyLocals(wasmstop.MaxModuleLocals/wasmstop.MaxLocals + 1)},
		{"MaxGlobals+1 globals", globals(wasmstop.MaxGlobals + 1)},
		{"MaxElements+1 entries", elements(wasmstop.MaxElements/2, wasmstop.MaxElements/2+1)},
		{"functions named", wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "t",
			Custom: nameSection(1, cat(uleb(huge), uleb(0), wasmtest.Name("x")))})},
		{"functions", wasmtest.Binary(typ, wasmtest.Section(3, uleb(huge)...))},
		{"parameters", wasmtest.Binary(wasmtest.Section(1, cat(uleb(1), []byte{0x60}, uleb(huge), []byte{0x7f}, uleb(0))...))},
		{"element's functions", wasmtest.Binary(typ, wasmtest.Section(9, cat(uleb(1), uleb(1), []byte{0x00}, uleb(huge), uleb(0))...))},
		{"element's expressions", wasmtest.Binary(typ, wasmtest.Section(9, cat(uleb(1), uleb(5), []byte{0x70}, uleb(huge), []byte{0xd2, 0x00, 0x0b})...))},
		{"data bytes", wasmtest.Binary(wasmtest.Section(11, cat(uleb(1), uleb(1), uleb(huge), []byte{1})...))},
	}
	for _, tc := range bad {
		if err := wasmstop.CheckCounts(tc.mod); !errors.Is(err, wasmstop.ErrCounts) {
			t.Errorf("%s: %v, want ErrCounts", tc.name, err)
		}
	}
	t.Run("core", func(t *testing.T) {
		for name, mod := range coreModules(t) {
			if err := wasmstop.CheckCounts(mod); err != nil {
				t.Errorf("core module %s: %v", name, err)
			}
		}
	})
}

// CheckCounts never panics and allocates nothing by what it reads.
func FuzzCheckCounts(f *testing.F) {
	f.Add(wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "t", Locals: 3}))
	f.Fuzz(func(t *testing.T, mod []byte) {
		wasmstop.CheckCounts(mod)
	})
}

// manyLocals is a module of n functions () -> () declaring MaxLocals i64
// locals each.
func manyLocals(n int) []byte {
	funcs, code := uleb(uint32(n)), uleb(uint32(n))
	body := cat(uleb(1), uleb(wasmstop.MaxLocals), []byte{0x7e, 0x0b})
	for range n {
		funcs = append(funcs, 0)
		code = append(append(code, uleb(uint32(len(body)))...), body...)
	}
	return wasmtest.Binary(wasmtest.Section(1, cat(uleb(1), []byte{0x60, 0, 0})...), wasmtest.Section(3, funcs...), wasmtest.Section(10, code...))
}

// globals is a module defining n globals, mutable i32s set to 0.
func globals(n int) []byte {
	g := uleb(uint32(n))
	for range n {
		g = append(g, 0x7f, 0x01, 0x41, 0x00, 0x0b)
	}
	return wasmtest.Binary(wasmtest.Section(6, g...))
}

// elements is a module of one function and passive element segments, each
// holding as many entries (that function) as counts gives.
func elements(counts ...int) []byte {
	segs := uleb(uint32(len(counts)))
	for _, n := range counts {
		segs = append(append(segs, 0x01, 0x00), uleb(uint32(n))...) // passive, funcref
		for range n {
			segs = append(segs, 0x00)
		}
	}
	return wasmtest.Binary(wasmtest.Section(1, cat(uleb(1), []byte{0x60, 0, 0})...), wasmtest.Section(3, 1, 0),
		wasmtest.Section(9, segs...), wasmtest.Section(10, 1, 2, 0, 0x0b))
}
