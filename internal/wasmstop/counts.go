package wasmstop

import (
	"errors"
	"fmt"
)

// wazero's decoder sizes what it allocates by the counts a module
// declares, before it reads what they count: a function's locals (one
// byte each in a slice, then tens of bytes each in the compiler), a
// vector's entries, the name section's names. A count is a number of up
// to 2^32-1 written in five bytes, so a module of a hundred bytes made
// `juju plugins build` and `install` take 5 GB and two minutes with one
// function of 200 million locals, and end with Go's out-of-memory error
// (no recover) with a name section naming 2^32-1 locals of a function:
// the module is decoded at build, at install before describe runs it,
// and at every load. CheckCounts reads every such count first, without
// allocating, so wazero never sees a module whose counts are past what
// its bytes can hold.

// MaxLocals is the most locals one function may declare, its parameters
// not counted: the bound browsers' engines set (the JavaScript API's
// implementation limits), so every module built for the web keeps it. Go
// and TinyGo functions declare at most a few hundred.
const MaxLocals = 50_000

// MaxModuleLocals is the most locals all of a module's functions may
// declare together: the bound per function alone let a module of 20 KB
// declare 100 million. juju's core module declares 16,000 (Go's
// functions a handful each); a module of 4 million compiles in about a
// second and 60 MB.
const MaxModuleLocals = 1 << 22

// MaxGlobals is the most globals a module may define. Each instance keeps
// its globals in juju's heap, outside the memory cap, at about 69 bytes
// each: a module of 50 MB defining 10 million took 686 MB per instance.
// Go's modules define 10 (juju adds 2); 65,536 take 4.5 MB.
const MaxGlobals = 1 << 16

// MaxElements is the most entries a module's element segments may hold
// together, as many as a table may (MaxTableEntries): wazero decodes each
// entry into some 40 bytes (16 MB of entries took 623 MB), and keeps a passive segment's entries in each
// instance, 8 bytes each in juju's heap outside the memory cap, where the
// module holds them in one byte each. Go's modules hold one segment of
// some 7,000 entries.
const MaxElements = MaxTableEntries

// ErrCounts wraps every reason CheckCounts refuses a module.
var ErrCounts = errors.New("wasmstop: the module declares more than its bytes hold")

// Section ids CheckCounts reads beyond the count of their vector.
const (
	secType    = 1
	secElement = 9
	secData    = 11
)

// CheckCounts refuses a module that declares a count of entries its bytes
// cannot hold, a function with more than MaxLocals locals, functions
// with more than MaxModuleLocals together, or more than MaxGlobals
// globals. Each entry
// of a vector takes at least a byte, so a count past the bytes left is
// malformed; the check stops there, at the count, where wazero would
// allocate for it. It does not validate the rest: wazero does, once the
// counts are known to be small.
func CheckCounts(mod []byte) error {
	if len(mod) < 8 {
		return fmt.Errorf("%w: not a wasm binary", ErrCounts)
	}
	r := reader{b: mod[8:]}
	for r.err == nil && r.off < len(r.b) {
		id := r.byte()
		body := r.bytes(r.u32())
		if r.err != nil {
			return fmt.Errorf("%w: a section's size is malformed", ErrCounts)
		}
		if err := checkSection(id, body); err != nil {
			return fmt.Errorf("%w: section %d: %w", ErrCounts, id, err)
		}
	}
	return nil
}

func checkSection(id byte, body []byte) error {
	s := reader{b: body}
	switch id {
	case secCustom:
		if s.name() == "name" && s.err == nil {
			return checkNames(&reader{b: body[s.off:]})
		}
		return nil
	case secStart, 12: // a function index; the data count
		return nil
	}
	n := s.count()
	switch id {
	case secGlobal:
		if n > MaxGlobals {
			return fmt.Errorf("the module defines %d globals, more than the %d juju allows", n, MaxGlobals)
		}
	case secType:
		for i := uint32(0); i < n && s.err == nil; i++ {
			if s.byte() != 0x60 {
				return errors.New("a type is not a function type")
			}
			s.valTypes(s.count()) // parameters
			s.valTypes(s.count()) // results
		}
	case secElement:
		var total uint64
		for i := uint32(0); i < n && s.err == nil; i++ {
			if total += uint64(s.element()); total > MaxElements {
				return fmt.Errorf("the element segments up to %d hold %d entries together, more than the %d juju allows", i, total, MaxElements)
			}
		}
	case secCode:
		var total uint64
		for i := uint32(0); i < n && s.err == nil; i++ {
			f := reader{b: s.bytes(s.u32())}
			if s.err != nil {
				break
			}
			var locals uint64
			for g := f.count(); g > 0 && f.err == nil; g-- {
				locals += uint64(f.u32())
				f.valTypes(1)
			}
			if f.err != nil {
				return fmt.Errorf("function %d's locals are malformed", i)
			}
			if locals > MaxLocals {
				return fmt.Errorf("function %d declares %d locals, more than the %d juju allows", i, locals, MaxLocals)
			}
			if total += locals; total > MaxModuleLocals {
				return fmt.Errorf("the functions up to %d declare %d locals together, more than the %d juju allows a module", i, total, MaxModuleLocals)
			}
		}
	case secData:
		for i := uint32(0); i < n && s.err == nil; i++ {
			switch s.u32() {
			case 0:
				s.constExpr()
			case 2:
				s.u32()
				s.constExpr()
			}
			s.bytes(s.u32())
		}
	}
	if s.err != nil {
		return errors.New("its entries are malformed, or more than its bytes hold")
	}
	return nil
}

// checkNames reads the name section's function names (1) and local names
// (2); other subsections are skipped.
func checkNames(r *reader) error {
	for r.err == nil && r.off < len(r.b) {
		id := r.byte()
		s := reader{b: r.bytes(r.u32())}
		if id != 1 && id != 2 {
			continue
		}
		for n := s.count(); n > 0 && s.err == nil; n-- {
			s.u32() // a function index
			if id == 1 {
				s.name()
				continue
			}
			for k := s.count(); k > 0 && s.err == nil; k-- {
				s.u32()
				s.name()
			}
		}
		if s.err != nil {
			return fmt.Errorf("the name section's subsection %d names more than its bytes hold, or is malformed", id)
		}
	}
	if r.err != nil {
		return errors.New("the name section is malformed")
	}
	return nil
}

// count reads a vector's count, which may not pass the bytes left: every
// entry takes one at least.
func (r *reader) count() uint32 {
	n := r.u32()
	if r.err == nil && uint64(n) > uint64(len(r.b)-r.off) {
		r.err = errEOF
		return 0
	}
	return n
}

// valTypes reads n value types; a reference type of the typed function
// references proposal carries a heap type.
func (r *reader) valTypes(n uint32) {
	for ; n > 0 && r.err == nil; n-- {
		if b := r.byte(); b == 0x63 || b == 0x64 {
			r.sleb(5)
		}
	}
}

// constExpr reads a constant expression up to its end.
func (r *reader) constExpr() {
	for r.err == nil {
		switch op := r.byte(); op {
		case 0x0b: // end
			return
		case 0x41: // i32.const
			r.sleb(5)
		case 0x42: // i64.const
			r.sleb(10)
		case 0x43: // f32.const
			r.bytes(4)
		case 0x44: // f64.const
			r.bytes(8)
		case 0x23, 0xd2: // global.get, ref.func
			r.u32()
		case 0xd0: // ref.null
			r.valTypes(1)
		case 0xfd: // v128.const
			if r.u32() != 12 {
				r.err = errEOF
			}
			r.bytes(16)
		case 0x6a, 0x6b, 0x6c, 0x7c, 0x7d, 0x7e: // extended constant arithmetic
		default:
			r.err = errEOF
		}
	}
}

// element reads an element segment, whichever of its eight forms, and
// returns how many entries it holds.
func (r *reader) element() uint32 {
	flags := r.u32()
	if flags > 7 {
		r.err = errEOF
		return 0
	}
	if flags&1 == 0 { // active
		if flags&2 != 0 {
			r.u32() // a table index
		}
		r.constExpr()
	}
	if flags&3 != 0 { // an element kind or a reference type
		r.valTypes(1)
	}
	n := r.count()
	for k := n; k > 0 && r.err == nil; k-- {
		if flags&4 != 0 {
			r.constExpr()
		} else {
			r.u32()
		}
	}
	return n
}
