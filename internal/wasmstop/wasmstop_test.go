package wasmstop_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/jujutools/juju/internal/wasmstop"
	"github.com/jujutools/juju/internal/wasmtest"
)

var (
	module  = wasmtest.Binary
	section = wasmtest.Section
	vec     = wasmtest.Vec
	name    = wasmtest.Name
	body    = wasmtest.Body
)

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// Types of the modules below: 0 is () -> (), 1 is (i32) -> (i32).
var types = section(1, vec([]byte{0x60, 0x00, 0x00}, []byte{0x60, 0x01, 0x7f, 0x01, 0x7f})...)

// memory declares one memory of one page.
var memory = section(5, vec([]byte{0x00, 0x01})...)

// funcs declares n functions of type 0 and exports them as f0, f1, ...
func funcs(n int) [][]byte {
	decl := make([][]byte, n)
	exports := make([][]byte, n)
	for i := range n {
		decl[i] = []byte{0x00}
		exports[i] = cat(name("f"+string(rune('0'+i))), []byte{0x00, byte(i)})
	}
	return [][]byte{section(3, vec(decl...)...), section(7, vec(exports...)...)}
}

// childEnv marks the child process of TestLoopsStop.
const childEnv = "JUJU_WASMSTOP_CHILD"

// A loop with no call and no memory access, the hardest case for any
// interruption, is stopped once the flag is set; so is one whose loop
// takes and passes parameters, one spinning in a callee, and a recursion
// without any loop that would make 2^40 calls (which wazero's own checks,
// at loop heads only, would not stop).
//
// A guest that never came back to Go would hang the whole process at the
// collector's next stop of the world, the test's own timers included, so
// the test runs in a child process that its parent kills after a minute.
func TestLoopsStop(t *testing.T) {
	if os.Getenv(childEnv) == "" {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestLoopsStop$", "-test.count=1")
		cmd.Env = append(os.Environ(), childEnv+"=1")
		out, err := cmd.CombinedOutput()
		if ctx.Err() != nil {
			t.Fatalf("the child hung for a minute: a spinning guest held up the process\n%s", out)
		}
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	// Types 0 and 1 as above, and 2: (i32) -> ().
	types := section(1, vec([]byte{0x60, 0x00, 0x00}, []byte{0x60, 0x01, 0x7f, 0x01, 0x7f}, []byte{0x60, 0x01, 0x7f, 0x00})...)
	mod := module(types, section(3, vec([]byte{0}, []byte{0}, []byte{0}, []byte{0}, []byte{2})...), memory,
		section(7, vec(cat(name("f0"), []byte{0x00, 0}), cat(name("f1"), []byte{0x00, 1}),
			cat(name("f2"), []byte{0x00, 2}), cat(name("f3"), []byte{0x00, 3}))...),
		section(10, vec(
			// f0: loop br 0 end
			body(0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b),
			// f1: i32.const 7 loop (type 1) i32.const 1 i32.add br 0 end drop
			body(0x41, 0x07, 0x03, 0x01, 0x41, 0x01, 0x6a, 0x0c, 0x00, 0x0b, 0x1a, 0x0b),
			// f2: block loop call f0 br 0 end end
			body(0x02, 0x40, 0x03, 0x40, 0x10, 0x00, 0x0c, 0x00, 0x0b, 0x0b, 0x0b),
			// f3: i32.const 40 call f4: 2^40 calls, no loop anywhere
			body(0x41, 0x28, 0x10, 0x04, 0x0b),
			// f4(n): if n { f4(n-1) f4(n-1) }
			body(0x20, 0x00, 0x04, 0x40,
				0x20, 0x00, 0x41, 0x01, 0x6b, 0x10, 0x04,
				0x20, 0x00, 0x41, 0x01, 0x6b, 0x10, 0x04,
				0x0b, 0x0b),
		)...))
	out, err := wasmstop.Instrument(mod)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(false))
	defer rt.Close(ctx)
	code, err := rt.CompileModule(ctx, out)
	if err != nil {
		t.Fatalf("the instrumented module does not compile: %v", err)
	}
	for _, f := range []string{"f0", "f1", "f2", "f3"} {
		t.Run(f, func(t *testing.T) {
			inst, err := rt.InstantiateModule(ctx, code, wazero.NewModuleConfig().WithName(""))
			if err != nil {
				t.Fatal(err)
			}
			g, ok := inst.ExportedGlobal(wasmstop.Export).(api.MutableGlobal)
			if !ok {
				t.Fatalf("no mutable global %s", wasmstop.Export)
			}
			done := make(chan error, 1)
			go func() {
				_, err := inst.ExportedFunction(f).Call(ctx)
				done <- err
			}()
			select {
			case err := <-done:
				t.Fatalf("%s returned before the stop: %v", f, err)
			case <-time.After(50 * time.Millisecond):
			}
			// The collector stops the world while the guest spins: the
			// guest's calls out to Go let the runtime preempt it. Without
			// them this would hang, and the timer below with it.
			collected := make(chan struct{})
			go func() {
				runtime.GC()
				close(collected)
			}()
			select {
			case <-collected:
			case <-time.After(10 * time.Second):
				t.Fatal("a collection waited 10 s for the spinning guest")
			}
			g.Set(1)
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "unreachable") {
					t.Fatalf("%s stopped with %v, want a trap", f, err)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s still runs 10 s after the stop", f) // leaks the goroutine
			}
		})
	}
}

// What the check costs a loop, and what wazero's own check costs it.
func BenchmarkLoop(b *testing.B) {
	fs := funcs(1)
	// f0: a local counts 1e6 turns: loop local.get 0 i32.const 1 i32.add local.tee 0 i32.const 1000000 i32.lt_u br_if 0 end
	countdown := []byte{0x01, 0x01, 0x7f, // one i32 local
		0x03, 0x40, 0x20, 0x00, 0x41, 0x01, 0x6a, 0x22, 0x00, 0x41, 0xc0, 0x84, 0x3d, 0x49, 0x0d, 0x00, 0x0b, 0x0b}
	mod := module(types, fs[0], memory, fs[1], section(10, vec(append(binary.AppendUvarint(nil, uint64(len(countdown))), countdown...))...))
	out, err := wasmstop.Instrument(mod)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		wasm     []byte
		closeOnC bool
	}{{"plain", mod, false}, {"instrumented", out, false}, {"CloseOnContextDone", mod, true}} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(c.closeOnC))
			defer rt.Close(ctx)
			inst, err := rt.Instantiate(ctx, c.wasm)
			if err != nil {
				b.Fatal(err)
			}
			f := inst.ExportedFunction("f0")
			for b.Loop() {
				if _, err := f.Call(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ns/turn")
		})
	}
}

// Modules without a global or an export section get them, in their place.
func TestSectionsAdded(t *testing.T) {
	mod := module(types, section(3, vec([]byte{0x00})...), memory, section(10, vec(body(0x0b))...))
	out, err := wasmstop.Instrument(mod)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	inst, err := rt.Instantiate(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	if inst.ExportedGlobal(wasmstop.Export) == nil {
		t.Fatal("no stop global")
	}
}

// What the package does not understand, it refuses; the host then runs
// the module as it is, stopped by wazero.
func TestRefused(t *testing.T) {
	fs := funcs(1)
	for _, c := range []struct {
		name string
		mod  []byte
	}{
		{"not wasm", []byte("hello, world")},
		{"wasm 2 version", append([]byte("\x00asm\x02\x00\x00\x00"), section(1, 0x00)...)},
		{"a section past its end", append(module(types), 0x03, 0x10, 0x00)},
		{"sections out of order", module(fs[0], types)},
		{"an unknown section", module(section(13, 0x00))},
		{"no memory", module(types, fs[0], fs[1], section(10, vec(body(0x03, 0x40, 0x0b, 0x0b))...))},
		{"already exports the name", module(types, section(3, vec([]byte{0x00})...), memory,
			section(7, vec(cat(name(wasmstop.Export), []byte{0x00, 0x00}))...), section(10, vec(body(0x0b))...))},
		{"sets a global it would get", module(types, fs[0], memory, fs[1], section(10, vec(body(0x41, 0x00, 0x24, 0x00, 0x0b))...))},
		{"reads a global it would get", module(types, fs[0], memory, fs[1], section(10, vec(body(0x23, 0x01, 0x1a, 0x0b))...))},
		{"a tail call", module(types, fs[0], memory, fs[1], section(10, vec(body(0x12, 0x00, 0x0b))...))},
		{"try_table", module(types, fs[0], memory, fs[1], section(10, vec(body(0x1f, 0x40, 0x00, 0x0b, 0x0b))...))},
		{"an atomic", module(types, fs[0], memory, fs[1], section(10, vec(body(0xfe, 0x03, 0x00, 0x0b))...))},
		{"a body going on after its end", module(types, fs[0], memory, fs[1], section(10, vec(body(0x0b, 0x01, 0x0b))...))},
		{"a body without its end", module(types, fs[0], memory, fs[1], section(10, vec(body(0x02, 0x40, 0x0b))...))},
		{"an immediate past the body", module(types, fs[0], memory, fs[1], section(10, vec(body(0x44, 0x00, 0x00))...))},
		{"a local of a typed reference", module(types, fs[0], memory, fs[1], section(10, vec([]byte{0x04, 0x01, 0x01, 0x64, 0x0b})...))},
		{"a 64-bit memory", module(section(2, vec(cat(name("m"), name("mem"), []byte{0x02, 0x04, 0x01}))...))},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := wasmstop.Instrument(c.mod)
			if !errors.Is(err, wasmstop.ErrUnsupported) || out != nil {
				t.Fatalf("got %d bytes, %v; want ErrUnsupported", len(out), err)
			}
		})
	}
}

// Whatever the bytes, Instrument does not panic, and what it makes,
// Verify accepts.
func FuzzInstrument(f *testing.F) {
	fs := funcs(3)
	f.Add(module(types, fs[0], memory, fs[1], section(10, vec(
		body(0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b),
		body(0x41, 0x07, 0x03, 0x01, 0x41, 0x01, 0x6a, 0x0c, 0x00, 0x0b, 0x1a, 0x0b),
		body(0x02, 0x40, 0x03, 0x40, 0x10, 0x00, 0x0c, 0x00, 0x0b, 0x0b, 0x0b),
	)...)))
	f.Add(module(types, section(3, vec([]byte{0x00})...), memory, section(10, vec(body(0x0b))...)))
	f.Fuzz(func(t *testing.T, mod []byte) {
		out, err := wasmstop.Instrument(mod)
		if err != nil {
			if !errors.Is(err, wasmstop.ErrUnsupported) && !errors.Is(err, wasmstop.ErrStart) || out != nil {
				t.Fatalf("%d bytes, %v", len(out), err)
			}
			return
		}
		if err := wasmstop.Verify(out); err != nil {
			t.Fatalf("Verify of Instrument's module: %v", err)
		}
	})
}

// Whatever a function's body, the module holding it compiles instrumented
// exactly when it compiles as it is: no instruction is misread, and no
// invalid one becomes valid by naming the global Instrument adds.
func FuzzInstrumentCode(f *testing.F) {
	for _, code := range [][]byte{
		{0x00, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b},
		{0x00, 0x41, 0x07, 0x03, 0x01, 0x41, 0x01, 0x6a, 0x0c, 0x00, 0x0b, 0x1a, 0x0b},
		{0x00, 0x02, 0x40, 0x03, 0x40, 0x10, 0x00, 0x0c, 0x00, 0x0b, 0x0b, 0x0b},
		{0x00, 0xfd, 0x0c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xfd, 0x15, 0x03, 0x1a, 0x0b},
		{0x01, 0x01, 0x7f, 0x41, 0x00, 0x28, 0x02, 0x00, 0x0e, 0x02, 0x00, 0x00, 0x00, 0x0b},
		{0x00, 0xfc, 0x0a, 0x00, 0x00, 0x23, 0x00, 0x1a, 0x0b},
	} {
		f.Add(code)
	}
	fs := funcs(1)
	table := section(4, vec([]byte{0x70, 0x00, 0x01})...)
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(false))
	f.Cleanup(func() { rt.Close(ctx) })
	f.Fuzz(func(t *testing.T, code []byte) {
		if len(code) > 1<<12 {
			return
		}
		fn := append(binary.AppendUvarint(nil, uint64(len(code))), code...)
		mod := module(types, fs[0], table, memory, fs[1], section(10, vec(fn)...))
		out, err := wasmstop.Instrument(mod)
		if err != nil {
			return // refused: run as it is, stopped by wazero
		}
		if err := wasmstop.Verify(out); err != nil {
			t.Fatalf("Verify of Instrument's module: %v", err)
		}
		orig, errOrig := rt.CompileModule(ctx, mod)
		inst, errInst := rt.CompileModule(ctx, out)
		if (errOrig == nil) != (errInst == nil) {
			t.Fatalf("the module compiles: %v; instrumented: %v", errOrig, errInst)
		}
		for _, c := range []wazero.CompiledModule{orig, inst} {
			if c != nil {
				c.Close(ctx)
			}
		}
	})
}
