package wasmstop_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/tetratelabs/wazero"

	"github.com/jujutools/juju/internal/wasmstop"
)

// growTypes: 0 is () -> (), 1 is (i32) -> (i32).
var growTypes = types

// growModule has the table section tables (nil: none), a memory, and
// exports f0 of type 1: table.grow(ref.null, its argument) of table 0
// when grows, else its argument as it is.
func growModule(tables []byte, grows bool) []byte {
	code := body(0xd0, 0x70, 0x20, 0x00, 0xfc, 0x0f, 0x00, 0x0b)
	if !grows {
		code = body(0x20, 0x00, 0x0b)
	}
	parts := [][]byte{growTypes, section(3, vec([]byte{0x01})...)}
	if tables != nil {
		parts = append(parts, tables)
	}
	return module(append(parts, memory, section(7, vec(cat(name("f0"), []byte{0x00, 0x00}))...), section(10, vec(code)...))...)
}

// table is a table section of the given tables: type, min, and max when
// not -1.
func table(tabs ...[3]int64) []byte {
	var items [][]byte
	for _, t := range tabs {
		b := []byte{byte(t[0])}
		if t[2] < 0 {
			b = binary.AppendUvarint(append(b, 0x00), uint64(t[1]))
		} else {
			b = binary.AppendUvarint(append(b, 0x01), uint64(t[1]))
			b = binary.AppendUvarint(b, uint64(t[2]))
		}
		items = append(items, b)
	}
	return section(4, vec(items...)...)
}

// Every table ends up with a maximum: its minimum when nothing grows it,
// at most MaxTableEntries otherwise; what Instrument leaves, BoundTables
// leaves as it is; and TableBytes counts the maximums.
func TestTablesBounded(t *testing.T) {
	const most = wasmstop.MaxTableEntries
	for _, c := range []struct {
		name  string
		mod   []byte
		bytes int64 // TableBytes of the bounded module
	}{
		{"grown, no maximum", growModule(table([3]int64{0x70, 0, -1}), true), most * 8},
		{"grown, a maximum past the bound", growModule(table([3]int64{0x70, 3, 1 << 30}), true), most * 8},
		{"grown, a maximum within it", growModule(table([3]int64{0x70, 3, 10}), true), 10 * 8},
		{"never grown, no maximum (Go's)", growModule(table([3]int64{0x70, 7350, -1}), false), 7350 * 8},
		{"never grown, two tables", growModule(table([3]int64{0x70, 5, -1}, [3]int64{0x6f, 0, 100}), false), 5 * 8},
		{"no table", growModule(nil, false), 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			bounded, err := wasmstop.BoundTables(c.mod)
			if err != nil {
				t.Fatal(err)
			}
			if n, err := wasmstop.TableBytes(bounded); err != nil || n != c.bytes {
				t.Errorf("TableBytes = %d, %v; want %d", n, err, c.bytes)
			}
			again, err := wasmstop.BoundTables(bounded)
			if err != nil || !bytes.Equal(again, bounded) || &again[0] != &bounded[0] {
				t.Errorf("BoundTables changed a bounded module (%v)", err)
			}
			inst, err := wasmstop.Instrument(c.mod)
			if err != nil {
				t.Fatal(err)
			}
			if n, err := wasmstop.TableBytes(inst); err != nil || n != c.bytes {
				t.Errorf("TableBytes of the instrumented module = %d, %v; want %d", n, err, c.bytes)
			}
			if out, err := wasmstop.BoundTables(inst); err != nil || &out[0] != &inst[0] {
				t.Errorf("BoundTables changed the instrumented module (%v)", err)
			}
		})
	}
	if _, err := wasmstop.TableBytes(growModule(table([3]int64{0x70, 0, -1}), true)); !errors.Is(err, wasmstop.ErrTables) {
		t.Errorf("TableBytes of a table without a maximum: %v, want ErrTables", err)
	}
}

// A grown table stops at MaxTableEntries: table.grow past it gives -1 and
// allocates nothing. Unbounded, a grow by 2^32-16 made wazero ask Go for
// 32 GiB, and Go's out-of-memory error ended the process.
func TestTableGrowStopsAtTheBound(t *testing.T) {
	mod := growModule(table([3]int64{0x70, 0, -1}), true)
	ctx := context.Background()
	for _, how := range []string{"Instrument", "BoundTables"} {
		t.Run(how, func(t *testing.T) {
			f := wasmstop.BoundTables
			if how == "Instrument" {
				f = wasmstop.Instrument
			}
			out, err := f(mod)
			if err != nil {
				t.Fatal(err)
			}
			rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(false))
			defer rt.Close(ctx)
			inst, err := rt.Instantiate(ctx, out)
			if err != nil {
				t.Fatal(err)
			}
			grow := inst.ExportedFunction("f0")
			for _, step := range []struct{ delta, want uint32 }{
				{1<<32 - 16, 1<<32 - 1}, // -1
				{1 << 27, 1<<32 - 1},
				{16, 0},
				{wasmstop.MaxTableEntries - 16, 16},
				{1, 1<<32 - 1},
			} {
				res, err := grow.Call(ctx, uint64(step.delta))
				if err != nil || uint32(res[0]) != step.want {
					t.Fatalf("table.grow by %d gave %v, %v; want %d", step.delta, res, err, int32(step.want))
				}
			}
		})
	}
}

// A module whose tables cannot be bounded is refused, by BoundTables for
// good (ErrTables: the host does not run it) and by Instrument.
func TestTablesRefused(t *testing.T) {
	imported := module(growTypes, section(2, vec(cat(name("m"), name("t"), []byte{0x01, 0x70, 0x00, 0x00}))...), memory)
	for _, c := range []struct {
		name string
		mod  []byte
	}{
		{"a table starting past the bound", growModule(table([3]int64{0x70, wasmstop.MaxTableEntries + 1, -1}), false)},
		{"a table of 2^27 entries", growModule(table([3]int64{0x70, 1 << 27, 1 << 27}), false)},
		{"too many tables", growModule(table([3]int64{0x70, 0, 1}, [3]int64{0x70, 0, 1}, [3]int64{0x70, 0, 1},
			[3]int64{0x70, 0, 1}, [3]int64{0x70, 0, 1}), false)},
		{"an imported table", imported},
		{"a table of a typed reference", growModule(section(4, vec([]byte{0x64, 0x70, 0x00, 0x00})...), false)},
		{"a shared table", growModule(section(4, vec([]byte{0x70, 0x03, 0x00, 0x01})...), false)},
		{"a 64-bit table", growModule(section(4, vec([]byte{0x70, 0x04, 0x00})...), false)},
		{"a maximum under the minimum", growModule(table([3]int64{0x70, 5, 4}), true)},
		{"a malformed table section", growModule(section(4, 0x01, 0x70), false)},
		{"not wasm", []byte("hello, world")},
	} {
		t.Run(c.name, func(t *testing.T) {
			if out, err := wasmstop.BoundTables(c.mod); !errors.Is(err, wasmstop.ErrTables) || out != nil {
				t.Errorf("BoundTables: %d bytes, %v; want ErrTables", len(out), err)
			}
			if out, err := wasmstop.Instrument(c.mod); !errors.Is(err, wasmstop.ErrUnsupported) || out != nil {
				t.Errorf("Instrument: %d bytes, %v; want ErrUnsupported", len(out), err)
			}
		})
	}
}

// Whatever the bytes, BoundTables does not panic, and what it makes is
// bounded: TableBytes accepts it, within MaxTables tables of
// MaxTableEntries.
func FuzzBoundTables(f *testing.F) {
	f.Add(growModule(table([3]int64{0x70, 0, -1}), true))
	f.Add(growModule(table([3]int64{0x70, 3, 10}, [3]int64{0x6f, 1, -1}), false))
	f.Fuzz(func(t *testing.T, mod []byte) {
		out, err := wasmstop.BoundTables(mod)
		if err != nil {
			if !errors.Is(err, wasmstop.ErrTables) && !errors.Is(err, wasmstop.ErrStart) || out != nil {
				t.Fatalf("%d bytes, %v", len(out), err)
			}
			return
		}
		n, err := wasmstop.TableBytes(out)
		if err != nil || n > wasmstop.MaxTables*wasmstop.MaxTableEntries*wasmstop.TableEntryBytes {
			t.Fatalf("TableBytes of BoundTables' module: %d, %v", n, err)
		}
	})
}
