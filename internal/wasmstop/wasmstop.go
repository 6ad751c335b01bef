// Package wasmstop makes a wasm module stoppable from outside at little
// cost. Instrument adds two mutable i32 globals, a turn counter and a stop
// flag (exported as Export), and a check at the start of every function
// and at the head of every loop: the counter goes down by one, and every
// Turns turns the check calls out to Go (memory.grow of no page) and traps
// (unreachable) once the host has set the flag.
//
// wazero's own way to stop guest code (CloseOnContextDone) calls out of
// the machine code into Go at every loop turn, which costs about 28 ns a
// turn; Go's wasm code starts most functions with a loop, so a plugin call
// spent about 40% of its time there (docs/RATIONALE.md, "Where the time of
// a plugin call goes"). The call out is needed all the same, more rarely:
// the Go runtime cannot preempt machine code, so a guest that never comes
// back to Go would hold up every stop-the-world phase of the collector,
// and with it the whole process, the timer that should stop the guest
// included. Every Turns turns, the call lets Go preempt the goroutine.
//
// Wasm code can only run long by branching back (a loop) or by calling:
// every other branch goes forward. Counting function starts as turns too
// covers a recursion without loops that makes exponentially many calls,
// each chain of them within the stack's limit, which wazero's checks (at
// loop heads alone) would let run. The instructions of proposals that
// would add other ways (tail calls, exception handling) are not decoded:
// Instrument refuses a module that uses them, as it refuses anything it
// does not fully understand, and the host then stops that module wazero's
// way.
//
// Instrument also bounds the module's tables, which live in the host's
// heap outside the memory limit; BoundTables does that alone, for a
// module Instrument refuses or juju does not instrument (tables.go).
package wasmstop

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// Export is the name under which an instrumented module exports its stop
// flag, a mutable i32 global. Once the flag holds non-zero, the instance
// traps within Turns loop turns.
const Export = "juju:stop"

// Turns is how many turns (loop turns and function starts) the guest makes
// between two calls out to Go, where the Go runtime may preempt it and the
// stop flag is read: a call out costs about 28 ns, so a turn pays about a
// twentieth of a nanosecond for it.
const Turns = 512

// ErrUnsupported wraps every reason Instrument refuses a module.
var ErrUnsupported = errors.New("wasmstop: module not instrumented")

// ErrStart is the error of a module with a start section. wazero runs the
// function it names inside instantiation, before the instance exists, so
// before juju can set its stop flag or hand it a deadline: a start that
// loops would never end. Every function of this package refuses such a
// module, and so does juju wherever it accepts one (docs/ABI.md).
var ErrStart = errors.New("the module has a start section (section 8), a function the runtime runs while it instantiates the module, where no deadline can stop it, so juju refuses it; " +
	"start a reactor in an exported _initialize instead, which juju calls under the call's deadline, as Go (-buildmode=c-shared), TinyGo and Rust (cdylib) build it, and AssemblyScript with --exportStart _initialize")

// Section ids of the wasm binary format.
const (
	secCustom   = 0
	secImport   = 2
	secTable    = 4
	secMemory   = 5
	secGlobal   = 6
	secExport   = 7
	secStart    = 8
	secCode     = 10
	maxSections = 12
)

// order is each known section's place in a module (the data count section
// comes between element and code).
var order = [maxSections + 1]int{1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, 12: 10, 10: 11, 11: 12}

// Value types of wasm 2.0 (numbers, v128, funcref, externref).
func isValType(b byte) bool {
	switch b {
	case 0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f:
		return true
	}
	return false
}

type section struct {
	id   byte
	body []byte
}

// Instrument returns a copy of the module mod with the turn counter, the
// stop flag and their checks, and its tables bounded as BoundTables
// bounds them. Its error wraps ErrUnsupported when mod uses what the
// package does not decode, has no memory, already has an export named
// Export, has tables past the bounds, or is malformed; the caller then
// runs mod as it is, stopped another way (its tables bounded by
// BoundTables). It is ErrStart when mod has a start section, which no
// way stops: such a module must not run.
func Instrument(mod []byte) ([]byte, error) {
	sections, err := split(mod)
	if err != nil {
		return nil, err
	}
	globals, memories, tables := 0, 0, 0 // imported and the module's own
	var code, tableBody []byte
	grows := false
	for _, s := range sections {
		var n, m, t int
		switch s.id {
		case secImport:
			n, m, t, err = importCounts(s.body)
		case secTable:
			tableBody = s.body
		case secMemory:
			m, err = vecLen(s.body)
		case secGlobal:
			n, err = vecLen(s.body)
		case secExport:
			_, found, e := findExport(s.body)
			if err = e; found {
				err = unsupported("the module already exports %q", Export)
			}
		case secCode:
			// The import and global sections come before: globals is
			// the count of the module's own.
			code, grows, err = instrumentCode(s.body, uint32(globals), uint32(globals)+1, false)
		}
		if err != nil {
			return nil, err
		}
		globals, memories, tables = globals+n, memories+m, tables+t
	}
	if memories == 0 {
		return nil, unsupported("the module has no memory to call out to Go through")
	}
	if tableBody, _, err = boundTables(tableBody, tables, grows); err != nil {
		return nil, unsupported("%v", err)
	}
	stop := uint32(globals) + 1

	out := make([]byte, 0, len(mod)+len(mod)/16)
	out = append(out, mod[:8]...)
	addedGlobal, addedExport := false, false
	for _, s := range sections {
		if s.id != secCustom {
			if !addedGlobal && order[s.id] > order[secGlobal] {
				out = appendSection(out, secGlobal, appendGlobals(binary.AppendUvarint(nil, 2)))
				addedGlobal = true
			}
			if !addedExport && order[s.id] > order[secExport] {
				out = appendSection(out, secExport, appendStopExport(binary.AppendUvarint(nil, 1), stop))
				addedExport = true
			}
		}
		body := s.body
		switch s.id {
		case secTable:
			body = tableBody
		case secGlobal:
			body, err = appendVec(s.body, 2, appendGlobals)
			addedGlobal = true
		case secExport:
			body, err = appendVec(s.body, 1, func(b []byte) []byte { return appendStopExport(b, stop) })
			addedExport = true
		case secCode:
			body = code
		}
		if err != nil {
			return nil, err
		}
		out = appendSection(out, s.id, body)
	}
	if !addedGlobal {
		out = appendSection(out, secGlobal, appendGlobals(binary.AppendUvarint(nil, 2)))
	}
	if !addedExport {
		out = appendSection(out, secExport, appendStopExport(binary.AppendUvarint(nil, 1), stop))
	}
	return out, nil
}

// Marked reports whether mod exports a global named Export: whether it
// claims to be instrumented. It reads the section headers and the export
// section only. Trust the claim only for a module whose origin you trust
// (one built into juju's binary); Verify checks it.
func Marked(mod []byte) bool {
	sections, err := split(mod)
	if err != nil {
		return false
	}
	for _, s := range sections {
		if s.id == secExport {
			_, found, err := findExport(s.body)
			return found && err == nil
		}
	}
	return false
}

// Verify reports whether mod is as Instrument leaves it: its last two
// globals are the counter and the stop flag, the flag is exported as
// Export, no instruction of the module's own names either, and every
// function and every loop starts with the check.
func Verify(mod []byte) error {
	sections, err := split(mod)
	if err != nil {
		return err
	}
	globals, stop, found := 0, uint32(0), false
	var last []byte // the global section's body
	for _, s := range sections {
		var n int
		switch s.id {
		case secImport:
			n, _, _, err = importCounts(s.body)
		case secGlobal:
			n, err = vecLen(s.body)
			last = s.body
		case secExport:
			stop, found, err = findExport(s.body)
		case secCode:
			if !found || stop != uint32(globals-1) {
				return unsupported("the module does not export its last global as %q", Export)
			}
			if globals < 2 || !bytes.HasSuffix(last, appendGlobals(nil)) {
				return unsupported("the last globals are not the turn counter and the stop flag")
			}
			_, _, err = instrumentCode(s.body, stop-1, stop, true)
		}
		if err != nil {
			return err
		}
		globals += n
	}
	if !found {
		return unsupported("the module exports no %q", Export)
	}
	return nil
}

// split checks mod's header and returns its sections, which must be known
// and in order; a start section is refused (ErrStart).
func split(mod []byte) ([]section, error) {
	if len(mod) < 8 || !bytes.Equal(mod[:8], []byte("\x00asm\x01\x00\x00\x00")) {
		return nil, unsupported("not a wasm 1 binary")
	}
	var sections []section
	last := 0
	for rest := mod[8:]; len(rest) > 0; {
		id := rest[0]
		size, n := binary.Uvarint(rest[1:])
		if n <= 0 || n > 5 || size > uint64(len(rest)-1-n) {
			return nil, unsupported("a section's size is malformed")
		}
		body := rest[1+n : 1+n+int(size)]
		rest = rest[1+n+int(size):]
		if id != secCustom {
			if id > maxSections || order[id] <= last {
				return nil, unsupported("section %d is unknown or out of order", id)
			}
			last = order[id]
		}
		if id == secStart {
			return nil, ErrStart
		}
		sections = append(sections, section{id, body})
	}
	return sections, nil
}

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

func appendSection(out []byte, id byte, body []byte) []byte {
	out = append(out, id)
	out = binary.AppendUvarint(out, uint64(len(body)))
	return append(out, body...)
}

// appendGlobals appends the two globals: the turn counter, a mutable i32
// starting at Turns, and the stop flag, a mutable i32 starting at 0.
func appendGlobals(b []byte) []byte {
	b = append(b, 0x7f, 0x01, 0x41)
	b = appendI32(b, Turns)
	return append(b, 0x0b, 0x7f, 0x01, 0x41, 0x00, 0x0b)
}

// appendI32 appends v, at least 0, as the signed LEB128 of an i32.const:
// its unsigned LEB128, and a zero byte more when the last one's sign bit
// is set.
func appendI32(b []byte, v uint32) []byte {
	b = binary.AppendUvarint(b, uint64(v))
	if last := len(b) - 1; b[last]&0x40 != 0 {
		b[last] |= 0x80
		b = append(b, 0x00)
	}
	return b
}

// appendStopExport appends the export of global index as Export.
func appendStopExport(b []byte, index uint32) []byte {
	b = binary.AppendUvarint(b, uint64(len(Export)))
	b = append(b, Export...)
	b = append(b, 0x03) // a global
	return binary.AppendUvarint(b, uint64(index))
}

// appendVec returns the vector body with its count k higher and add's
// elements after its last.
func appendVec(body []byte, k uint32, add func([]byte) []byte) ([]byte, error) {
	r := reader{b: body}
	n := r.u32()
	if r.err != nil || n > ^uint32(0)-k {
		return nil, unsupported("a vector's length is malformed")
	}
	out := binary.AppendUvarint(make([]byte, 0, len(body)+32), uint64(n+k))
	out = append(out, body[r.off:]...)
	return add(out), nil
}

// vecLen is the count that starts a vector section.
func vecLen(body []byte) (int, error) {
	r := reader{b: body}
	n := r.u32()
	if r.err != nil {
		return 0, unsupported("a vector's length is malformed")
	}
	return int(n), nil
}

// importCounts counts the globals, memories and tables an import section
// imports.
func importCounts(body []byte) (globals, memories, tables int, err error) {
	r := reader{b: body}
	n := r.u32()
	for i := uint32(0); i < n && r.err == nil; i++ {
		r.name()
		r.name()
		switch kind := r.byte(); kind {
		case 0x00: // a function
			r.u32()
		case 0x01: // a table
			r.byte()
			r.limits()
			tables++
		case 0x02: // a memory
			r.limits()
			memories++
		case 0x03: // a global
			r.byte()
			r.byte()
			globals++
		default:
			return 0, 0, 0, unsupported("import kind %#x", kind)
		}
	}
	if r.err != nil || r.off != len(body) {
		return 0, 0, 0, unsupported("the import section is malformed")
	}
	return globals, memories, tables, nil
}

// findExport finds the export named Export in an export section: the
// index it exports, when it is a global.
func findExport(body []byte) (index uint32, found bool, err error) {
	r := reader{b: body}
	n := r.u32()
	for i := uint32(0); i < n && r.err == nil; i++ {
		name := r.name()
		kind := r.byte()
		idx := r.u32()
		if name == Export {
			if kind != 0x03 {
				return 0, false, unsupported("the module exports %q, not as a global", Export)
			}
			index, found = idx, true
		}
	}
	if r.err != nil || r.off != len(body) {
		return 0, false, unsupported("the export section is malformed")
	}
	return index, found, nil
}
