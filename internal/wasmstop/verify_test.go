package wasmstop

import (
	"bytes"
	"context"
	"testing"

	"github.com/tetratelabs/wazero"

	"github.com/jujutools/juju/internal/wasmtest"
)

// Verify accepts what Instrument makes and nothing short of it; Marked
// only reads the claim.
func TestVerify(t *testing.T) {
	sec, fn := wasmtest.Section, wasmtest.Body
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	head := []byte("\x00asm\x01\x00\x00\x00")
	types := sec(1, 0x01, 0x60, 0x00, 0x00)
	funcs := sec(3, 0x02, 0x00, 0x00)
	memory := sec(5, 0x01, 0x00, 0x01)
	name := append([]byte{byte(len(Export))}, Export...)
	// A module of two functions and three loops, with the checks of
	// globals 0 and 1 written in by hand (at each function's start and
	// after each loop), the one numbered skip left out.
	check := stopCheck(0, 1)
	assemble := func(skip int, globals []byte) []byte {
		checks := 0
		next := func(b ...byte) []byte {
			checks++
			if checks == skip {
				return b
			}
			return append(b, check...)
		}
		code := cat([]byte{0x02},
			fn(cat(next(), next(0x03, 0x40), []byte{0x0c, 0x00, 0x0b, 0x0b})...),
			fn(cat(next(), next(0x03, 0x40), next(0x03, 0x40), []byte{0x0b, 0x0b, 0x0b})...))
		return cat(head, types, funcs, memory, sec(6, globals...),
			sec(7, cat([]byte{0x01}, name, []byte{0x03, 0x01})...), sec(10, code...))
	}
	good := appendGlobals([]byte{0x02})
	if err := Verify(assemble(0, good)); err != nil {
		t.Fatalf("Verify of the module with every check: %v", err)
	}
	if !Marked(assemble(0, good)) {
		t.Error("Marked: false for a module exporting the flag")
	}
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	for skip := 1; skip <= 5; skip++ {
		mod := assemble(skip, good)
		if _, err := rt.CompileModule(ctx, mod); err != nil {
			t.Fatalf("without check %d: not valid: %v", skip, err)
		}
		if err := Verify(mod); err == nil {
			t.Errorf("Verify passes a module without check %d", skip)
		}
	}
	// The counter starting elsewhere than at Turns (never calling out
	// to Go for four billion turns) is refused too.
	bad := []byte{0x02, 0x7f, 0x01, 0x41, 0x00, 0x0b, 0x7f, 0x01, 0x41, 0x00, 0x0b}
	if _, err := rt.CompileModule(ctx, assemble(0, bad)); err != nil {
		t.Fatal(err)
	}
	if err := Verify(assemble(0, bad)); err == nil {
		t.Error("Verify passes a counter that does not start at Turns")
	}

	// What Instrument makes passes, and a module that sets the flag does
	// not.
	plain := cat(head, types, funcs, memory, sec(10, cat([]byte{0x02}, fn(0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b), fn(0x0b))...))
	if Marked(plain) || Verify(plain) == nil {
		t.Fatal("an uninstrumented module passes")
	}
	out, err := Instrument(plain)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(out); err != nil {
		t.Fatalf("Verify of Instrument's module: %v", err)
	}
	if n := bytes.Count(out, check); n != 3 {
		t.Fatalf("%d checks, want one per function and per loop (3)", n)
	}
	reset := cat(head, types, funcs, memory, sec(6, good...),
		sec(7, cat([]byte{0x01}, name, []byte{0x03, 0x01})...),
		sec(10, cat([]byte{0x02}, fn(cat(check, []byte{0x03, 0x40}, check, []byte{0x0c, 0x00, 0x0b, 0x0b})...), fn(cat(check, []byte{0x41, 0x00, 0x24, 0x01, 0x0b})...))...))
	if _, err := rt.CompileModule(ctx, reset); err != nil {
		t.Fatal(err)
	}
	if err := Verify(reset); err == nil {
		t.Error("Verify passes a module that resets the stop flag")
	}
}

// appendI32 writes what a signed LEB128 reader reads back.
func TestAppendI32(t *testing.T) {
	for _, v := range []uint32{0, 1, 63, 64, 127, 128, Turns, 8191, 8192, 1<<31 - 1} {
		b := appendI32(nil, v)
		var got int64
		var shift uint
		for i, c := range b {
			got |= int64(c&0x7f) << shift
			shift += 7
			if c&0x80 == 0 {
				if c&0x40 != 0 {
					got |= -1 << shift
				}
				if i != len(b)-1 {
					t.Fatalf("%d: %x ends early", v, b)
				}
			}
		}
		if got != int64(v) {
			t.Errorf("%d: %x reads back as %d", v, b, got)
		}
	}
}
