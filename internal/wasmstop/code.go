package wasmstop

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// stopCheck is the check after every loop's block type:
//
//	global.get count; i32.const 1; i32.sub; global.set count
//	global.get count; i32.eqz
//	if
//	  i32.const Turns; global.set count
//	  i32.const 0; memory.grow; drop  ;; out to Go and back
//	  global.get stop; if unreachable end
//	end
func stopCheck(count, stop uint32) []byte {
	c := binary.AppendUvarint(nil, uint64(count))
	b := append([]byte{0x23}, c...)
	b = append(append(append(b, 0x41, 0x01, 0x6b, 0x24), c...), 0x23)
	b = append(append(b, c...), 0x45, 0x04, 0x40, 0x41)
	b = append(appendI32(b, Turns), 0x24)
	b = append(append(b, c...), 0x41, 0x00, 0x40, 0x00, 0x1a, 0x23)
	b = binary.AppendUvarint(b, uint64(stop))
	return append(b, 0x04, 0x40, 0x00, 0x0b, 0x0b)
}

// instrumentCode returns the code section body with the check after every
// loop instruction; with verify, it returns body itself once it has found
// the check after every loop. Every instruction is decoded, immediates
// and all, so that no byte of an immediate is taken for an opcode; a body
// whose blocks do not close exactly at its end is refused. grows reports
// whether any function holds a table.grow.
func instrumentCode(body []byte, count, stop uint32, verify bool) (out []byte, grows bool, err error) {
	check := stopCheck(count, stop)
	r := reader{b: body}
	n := r.u32()
	out = binary.AppendUvarint(make([]byte, 0, len(body)+len(body)/8), uint64(n))
	var fn []byte
	for i := uint32(0); i < n && r.err == nil; i++ {
		size := r.u32()
		code := r.bytes(size)
		if r.err != nil {
			break
		}
		var fnGrows bool
		fn, fnGrows, err = instrumentFunc(fn[:0], code, count, check, verify)
		if err != nil {
			return nil, false, err
		}
		grows = grows || fnGrows
		if !verify {
			out = binary.AppendUvarint(out, uint64(len(fn)))
			out = append(out, fn...)
		}
	}
	if r.err != nil || r.off != len(body) {
		return nil, false, unsupported("the code section is malformed")
	}
	if verify {
		return body, grows, nil
	}
	return out, grows, nil
}

// instrumentFunc appends the function body code to out with a check at
// its start and after every loop's block type; with verify, it checks that
// the function has them already and appends nothing. first is the first of
// the two globals the check uses: no other instruction may name them.
//
// The check at the start counts calls as turns: without it, a function
// calling itself twice per call, with no loop, would run for as long as
// it liked (2^depth calls, never deeper than the stack allows) without
// ever coming to a check. grows reports a table.grow in the function.
func instrumentFunc(out, code []byte, first uint32, check []byte, verify bool) (_ []byte, grows bool, err error) {
	r := reader{b: code}
	groups := r.u32() // local declarations: count, type
	for i := uint32(0); i < groups && r.err == nil; i++ {
		r.u32()
		if !isValType(r.byte()) {
			return nil, false, unsupported("a local's type is not of wasm 2.0")
		}
	}
	if r.err != nil {
		return nil, false, unsupported("a function's locals are malformed")
	}
	copied := r.off
	if verify {
		if !bytes.HasPrefix(code[r.off:], check) {
			return nil, false, unsupported("a function does not start with the stop check")
		}
		r.off += len(check)
	} else {
		out = append(append(out, code[:r.off]...), check...)
	}
	depth := 1 // the function's own block
	for r.err == nil && r.off < len(code) {
		op := r.byte()
		switch {
		case op == 0x02 || op == 0x04: // block, if
			r.blockType()
			depth++
		case op == 0x03: // loop
			r.blockType()
			depth++
			if verify {
				if r.err == nil && !bytes.HasPrefix(code[r.off:], check) {
					return nil, false, unsupported("a loop has no stop check")
				}
				r.off += len(check) // its if and end balance
				continue
			}
			out = append(out, code[copied:r.off]...)
			out = append(out, check...)
			copied = r.off
		case op == 0x0b: // end
			depth--
			if depth == 0 && r.off != len(code) {
				return nil, false, unsupported("a function body goes on after its end")
			}
		case op == 0x23 || op == 0x24: // global.get, global.set
			if r.u32() >= first {
				return nil, false, unsupported("an instruction names the check's globals, or a global the module does not have")
			}
		default:
			if err := r.skipImmediates(op); err != nil {
				return nil, false, err
			}
		}
	}
	if r.err != nil || depth != 0 {
		return nil, false, unsupported("a function body is malformed")
	}
	if verify {
		return out, r.grows, nil
	}
	return append(out, code[copied:]...), r.grows, nil
}

// skipImmediates reads the immediates of op, any instruction of wasm 2.0
// but block, loop, if, end and the global ones.
func (r *reader) skipImmediates(op byte) error {
	switch {
	case op <= 0x01, op == 0x05, op == 0x0f, op == 0x1a, op == 0x1b, op == 0xd1:
		// unreachable, nop, else, return, drop, select, ref.is_null
	case op == 0x0c || op == 0x0d, op == 0x10, op >= 0x20 && op <= 0x22, op == 0x25 || op == 0x26, op == 0xd2:
		r.u32() // br, br_if, call, local.*, table.get/set, ref.func
	case op == 0x0e: // br_table
		n := r.u32()
		for i := uint32(0); i <= n && r.err == nil; i++ {
			r.u32()
		}
	case op == 0x11: // call_indirect: type, table
		r.u32()
		r.u32()
	case op == 0x1c: // select with types
		n := r.u32()
		for i := uint32(0); i < n && r.err == nil; i++ {
			if !isValType(r.byte()) {
				return unsupported("select names a type not of wasm 2.0")
			}
		}
	case op >= 0x28 && op <= 0x3e: // loads and stores
		r.memarg()
	case op == 0x3f || op == 0x40: // memory.size, memory.grow
		r.u32()
	case op == 0x41:
		r.sleb(5)
	case op == 0x42:
		r.sleb(10)
	case op == 0x43:
		r.bytes(4)
	case op == 0x44:
		r.bytes(8)
	case op >= 0x45 && op <= 0xc4: // numeric, sign extension
	case op == 0xd0: // ref.null
		if t := r.byte(); t != 0x70 && t != 0x6f {
			return unsupported("ref.null of a type not of wasm 2.0")
		}
	case op == 0xfc:
		return r.skipMisc()
	case op == 0xfd:
		return r.skipVector()
	default:
		// Tail calls, exception handling, typed function references,
		// threads: not enabled in juju's runtime, and not decoded here.
		return unsupported("opcode %#x is not of wasm 2.0", op)
	}
	return nil
}

// skipMisc reads a 0xfc instruction: saturating truncations, bulk memory
// and table operations.
func (r *reader) skipMisc() error {
	switch sub := r.u32(); {
	case sub <= 7: // trunc_sat
	case sub == 15: // table.grow
		r.u32()
		r.grows = true
	case sub == 9 || sub == 11 || sub == 13 || sub == 16 || sub == 17:
		r.u32() // data.drop, memory.fill, elem.drop, table.size/fill
	case sub == 8 || sub == 10 || sub == 12 || sub == 14:
		r.u32() // memory.init, memory.copy, table.init, table.copy
		r.u32()
	default:
		return unsupported("opcode 0xfc %d is not of wasm 2.0", sub)
	}
	return nil
}

// skipVector reads a 0xfd (SIMD) instruction.
func (r *reader) skipVector() error {
	switch sub := r.u32(); {
	case sub <= 11 || sub == 92 || sub == 93: // loads, store, load_zero
		r.memarg()
	case sub == 12 || sub == 13: // v128.const, i8x16.shuffle
		r.bytes(16)
	case sub >= 21 && sub <= 34: // extract_lane, replace_lane
		r.byte()
	case sub >= 84 && sub <= 91: // load_lane, store_lane
		r.memarg()
		r.byte()
	case sub <= 255:
	default:
		return unsupported("opcode 0xfd %d is not of wasm 2.0", sub)
	}
	return nil
}

// errEOF ends a reader that ran out of bytes or met a malformed number.
var errEOF = errors.New("wasmstop: malformed")

// reader decodes the wasm binary format. Its first failure sticks: every
// later read returns zero, and err says so. grows records that an
// instruction read was a table.grow.
type reader struct {
	b     []byte
	off   int
	err   error
	grows bool
}

func (r *reader) byte() byte {
	if r.err != nil || r.off >= len(r.b) {
		r.err = errEOF
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

func (r *reader) bytes(n uint32) []byte {
	if r.err != nil || uint64(n) > uint64(len(r.b)-r.off) {
		r.err = errEOF
		return nil
	}
	b := r.b[r.off : r.off+int(n)]
	r.off += int(n)
	return b
}

// u32 reads an unsigned LEB128 number of at most 32 bits.
func (r *reader) u32() uint32 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 || n > 5 || v > 1<<32-1 {
		r.err = errEOF
		return 0
	}
	r.off += n
	return uint32(v)
}

// sleb skips a signed LEB128 number of at most max bytes.
func (r *reader) sleb(max int) {
	for i := 0; r.err == nil; i++ {
		if i == max {
			r.err = errEOF
			return
		}
		if r.byte()&0x80 == 0 {
			return
		}
	}
}

func (r *reader) name() string {
	return string(r.bytes(r.u32()))
}

func (r *reader) limits() {
	switch flags := r.byte(); flags {
	case 0x00:
		r.u32()
	case 0x01, 0x03: // with a maximum; 0x03: shared
		r.u32()
		r.u32()
	default:
		r.err = errEOF
	}
}

func (r *reader) memarg() {
	r.u32() // alignment
	r.u32() // offset
}

// blockType reads a block type: empty, a value type, or a type index.
func (r *reader) blockType() {
	if r.err != nil || r.off >= len(r.b) {
		r.err = errEOF
		return
	}
	if c := r.b[r.off]; c == 0x40 || isValType(c) {
		r.off++
		return
	}
	r.sleb(5) // a type index, as a signed 33-bit number
}
