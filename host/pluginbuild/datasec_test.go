package pluginbuild

import (
	"bytes"
	"context"
	"encoding/binary"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// A Go plugin's tens of thousands of data segments become a few, and a new
// instance's memory holds the same bytes as with the go command's module.
func TestPackDataKeepsTheMemoryImage(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(file), "..", "..", "plugins", "testplugins", "echo")
	raw, err := compileRaw(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	packed := packData(raw)
	before, after := segmentCount(t, raw), segmentCount(t, packed)
	t.Logf("%d segments → %d; %d → %d bytes", before, after, len(raw), len(packed))
	if before < 1000 || after > 10 {
		t.Fatalf("%d segments → %d: expected thousands to become a few", before, after)
	}
	if a, b := memoryImage(t, raw), memoryImage(t, packed); !bytes.Equal(a, b) {
		t.Fatalf("the packed module's initial memory differs (%d vs %d bytes)", len(a), len(b))
	}
}

// Modules whose data section packData does not fully understand, or that
// gain nothing, are returned as they are.
func TestPackDataLeavesOthersAlone(t *testing.T) {
	seg := func(off int64, data ...byte) []byte {
		b := appendSleb([]byte{0x00, 0x41}, off)
		b = append(b, 0x0b)
		return append(binary.AppendUvarint(b, uint64(len(data))), data...)
	}
	for name, body := range map[string][]byte{
		"one segment":         join(1, seg(16, 1, 2)),
		"far apart":           join(2, seg(16, 1), seg(16+maxDataGap+2, 2)),
		"overlapping":         join(2, seg(16, 1, 2, 3), seg(17, 4)),
		"passive":             join(2, seg(16, 1), []byte{0x01, 1, 7}),
		"global offset":       join(2, seg(16, 1), []byte{0x00, 0x23, 0, 0x0b, 1, 7}),
		"trailing bytes":      append(join(2, seg(16, 1), seg(20, 2)), 0),
		"count past the end":  join(9, seg(16, 1), seg(20, 2)),
		"length past the end": join(2, seg(16, 1), []byte{0x00, 0x41, 20, 0x0b, 9, 1}),
	} {
		wasm := module(body)
		if out := packData(wasm); !bytes.Equal(out, wasm) {
			t.Errorf("%s: changed", name)
		}
	}
	// Two segments a few bytes apart become one, the gap written out.
	wasm := module(join(2, seg(16, 1, 2), seg(20, 3)))
	want := module(join(1, seg(16, 1, 2, 0, 0, 3)))
	if out := packData(wasm); !bytes.Equal(out, want) {
		t.Errorf("joined: % x\nwant % x", out, want)
	}
	for _, bad := range [][]byte{nil, []byte("\x00asm"), []byte("\x00asm\x01\x00\x00\x00\x0b\x7f"), []byte("not wasm at all")} {
		if out := packData(bad); !bytes.Equal(out, bad) {
			t.Errorf("%q: changed", bad)
		}
	}
}

func TestSleb(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 63, 64, -64, -65, 1 << 20, -1 << 31, 1<<31 - 1, 1<<63 - 1, -1 << 63} {
		b := appendSleb(nil, v)
		got, n := readSleb(b)
		if got != v || n != len(b) {
			t.Errorf("%d: % x reads as %d (%d bytes)", v, b, got, n)
		}
	}
	if _, n := readSleb([]byte{0x80, 0x80}); n != 0 {
		t.Error("an unterminated number read")
	}
}

// Whatever the input, packData does not panic, and a module it changes has
// the same initial memory as the one it was given.
func FuzzPackData(f *testing.F) {
	f.Add(module(join(3, []byte{0x00, 0x41, 16, 0x0b, 2, 1, 2}, []byte{0x00, 0x41, 20, 0x0b, 1, 3}, []byte{0x00, 0x41, 0x80, 0x01, 0x0b, 1, 9})))
	f.Add(module(join(2, []byte{0x00, 0x41, 0x7f, 0x0b, 1, 1}, []byte{0x00, 0x41, 0x00, 0x0b, 1, 3})))
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x0c\x01\x02\x0b\x03\x02\x00\x00"))
	f.Fuzz(func(t *testing.T, wasm []byte) {
		out := packData(wasm)
		if bytes.Equal(out, wasm) {
			return
		}
		if a, b := image(t, wasm), image(t, out); !slices.Equal(a, b) {
			t.Fatalf("initial memory changed:\n%v\n%v", a, b)
		}
	})
}

// image is what a module's data segments, as packData reads them, write
// into a zeroed memory: the address and value of every byte not zero.
func image(t *testing.T, wasm []byte) []nonZero {
	t.Helper()
	var data []byte
	for rest := wasm[8:]; len(rest) > 0; {
		size, n := binary.Uvarint(rest[1:])
		if rest[0] == secData {
			data = rest[1+n : 1+n+int(size)]
		}
		rest = rest[1+n+int(size):]
	}
	segs, err := readSegments(data)
	if err != nil {
		t.Fatalf("a changed module's data section does not read: %v", err)
	}
	var out []nonZero
	for _, s := range segs {
		for i, c := range s.data {
			if c != 0 {
				out = append(out, nonZero{s.off + uint64(i), c})
			}
		}
	}
	return out
}

type nonZero struct {
	addr uint64
	val  byte
}

// module is a wasm module of a data section alone.
func module(data []byte) []byte {
	b := append([]byte("\x00asm"), 1, 0, 0, 0, secData)
	b = binary.AppendUvarint(b, uint64(len(data)))
	return append(b, data...)
}

// join is a data section's body of count segments.
func join(count int, segs ...[]byte) []byte {
	b := binary.AppendUvarint(nil, uint64(count))
	for _, s := range segs {
		b = append(b, s...)
	}
	return b
}

func segmentCount(t *testing.T, wasm []byte) int {
	t.Helper()
	for rest := wasm[8:]; len(rest) > 0; {
		size, n := binary.Uvarint(rest[1:])
		if rest[0] == secData {
			c, _ := binary.Uvarint(rest[1+n:])
			return int(c)
		}
		rest = rest[1+n+int(size):]
	}
	t.Fatal("no data section")
	return 0
}

// memoryImage instantiates wasm in wazero, its imports stubbed and its
// start functions not run, and returns its memory: the data segments as
// wazero laid them out.
func memoryImage(t *testing.T, wasm []byte) []byte {
	t.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	code, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	stubs := map[string]wazero.HostModuleBuilder{}
	for _, f := range code.ImportedFunctions() {
		mod, name, _ := f.Import()
		if mod == wasi_snapshot_preview1.ModuleName {
			continue
		}
		b, ok := stubs[mod]
		if !ok {
			b = rt.NewHostModuleBuilder(mod)
			stubs[mod] = b
		}
		b.NewFunctionBuilder().WithGoFunction(api.GoFunc(func(context.Context, []uint64) {}), f.ParamTypes(), f.ResultTypes()).Export(name)
	}
	for mod, b := range stubs {
		if _, err := b.Instantiate(ctx); err != nil {
			t.Fatalf("stubbing %s: %v", mod, err)
		}
	}
	m, err := rt.InstantiateModule(ctx, code, wazero.NewModuleConfig().WithStartFunctions())
	if err != nil {
		t.Fatal(err)
	}
	mem, ok := m.Memory().Read(0, m.Memory().Size())
	if !ok {
		t.Fatal("reading memory")
	}
	return bytes.Clone(mem)
}
