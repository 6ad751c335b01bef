package wasmstop

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// A wasm table lives outside the instance's linear memory: wazero keeps
// it as a Go slice of TableEntryBytes per entry, in juju's own heap, and
// the memory cap (wazero's memory limit) does not bound it. A table with
// no maximum may grow to 2^32-2 entries; `table.grow` of nearly that many
// made wazero ask Go for 32 GiB, and Go's out-of-memory error ends the
// whole process (no recover). So every module juju runs has its tables
// bounded here: at most MaxTables tables, none imported, each starting
// with at most MaxTableEntries entries and declaring a maximum of at most
// that many. When no instruction of the module grows a table, each
// table's maximum is its minimum: such a table never changes size, and
// the host counts no room for growth it will never use (TableBytes). A
// `table.grow` past a maximum gives -1 and allocates nothing, as wasm
// says.
//
// Element segments need nothing more: an active segment must fit the
// table's size at instantiation (its minimum, which is bounded), and no
// segment grows a table.

// MaxTableEntries is the most entries a table may start with or grow to:
// 8 MiB of juju's heap. A module's function table holds one entry per
// function it calls indirectly: 7,350 in juju's core module (Go's wasip1
// output, which declares no maximum and never grows it), fewer in TinyGo,
// Rust and AssemblyScript modules; a growing table (Emscripten's dynamic
// linking) holds as many as the functions added. 2^20 is over a hundred
// times the core module's.
const MaxTableEntries = 1 << 20

// MaxTables is the most tables a module may have. Compilers emit one, the
// indirect function table; code using reference types may add an
// externref table (wasm-bindgen does): four leaves room, and keeps what
// tables may cost an instance within 4 × 8 MiB.
const MaxTables = 4

// TableEntryBytes is what wazero keeps for each entry of a table: a Go
// uintptr (wasm.Reference).
const TableEntryBytes = 8

// ErrTables wraps every reason BoundTables and TableBytes refuse a module.
var ErrTables = errors.New("wasmstop: the module's tables cannot be bounded")

// BoundTables returns mod with its tables bounded (see above): mod itself
// when they are already, a copy otherwise. Whether an instruction grows a
// table is read from the code section; when it cannot be decoded, every
// table may grow, to MaxTableEntries. Its error wraps ErrTables when mod
// imports a table, has more than MaxTables, one starting with more than
// MaxTableEntries entries or of a type not of wasm 2.0, or is malformed;
// it is ErrStart when mod has a start section. Such a module must not run.
func BoundTables(mod []byte) ([]byte, error) {
	sections, err := split(mod)
	if err != nil {
		return nil, splitError(err)
	}
	imported, at, grows := 0, -1, false
	for i, s := range sections {
		switch s.id {
		case secImport:
			if _, _, imported, err = importCounts(s.body); err != nil {
				return nil, fmt.Errorf("%w: %w", ErrTables, err)
			}
		case secTable:
			at = i
		case secCode:
			// Decoded as Instrument would, naming globals no module has.
			_, g, err := instrumentCode(s.body, ^uint32(0), ^uint32(0), false)
			grows = g || err != nil
		}
	}
	var body []byte
	if at >= 0 {
		body = sections[at].body
	}
	bounded, _, err := boundTables(body, imported, grows)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTables, err)
	}
	if at < 0 || bytes.Equal(bounded, body) {
		return mod, nil
	}
	out := make([]byte, 0, len(mod)+8)
	out = append(out, mod[:8]...)
	for i, s := range sections {
		if i == at {
			s.body = bounded
		}
		out = appendSection(out, s.id, s.body)
	}
	return out, nil
}

// TableBytes is what the tables of mod, bounded already (by BoundTables
// or Instrument), may hold in juju's heap at most: the sum of their
// maximums, TableEntryBytes each. Its error wraps ErrTables when a table
// of mod is not bounded (it has no maximum, one past MaxTableEntries, or
// is imported), or mod is malformed; it is ErrStart when mod has a start
// section.
func TableBytes(mod []byte) (int64, error) {
	sections, err := split(mod)
	if err != nil {
		return 0, splitError(err)
	}
	imported := 0
	var body []byte
	for _, s := range sections {
		switch s.id {
		case secImport:
			if _, _, imported, err = importCounts(s.body); err != nil {
				return 0, fmt.Errorf("%w: %w", ErrTables, err)
			}
		case secTable:
			body = s.body
		}
	}
	bounded, entries, err := boundTables(body, imported, true)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrTables, err)
	}
	if !bytes.Equal(bounded, body) {
		return 0, fmt.Errorf("%w: a table has no maximum, or one past %d entries", ErrTables, MaxTableEntries)
	}
	return int64(entries) * TableEntryBytes, nil
}

// splitError is split's error as BoundTables and TableBytes return it:
// wrapped in ErrTables, except ErrStart, which says all itself.
func splitError(err error) error {
	if errors.Is(err, ErrStart) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrTables, err)
}

// boundTables returns the table section body with every table's maximum
// declared: its minimum unless grows, else the maximum it declares
// (MaxTableEntries if none, or if more); and the sum of those maximums.
// imported is how many tables the module imports. A module without a
// table section has body nil, and gets nil.
func boundTables(body []byte, imported int, grows bool) ([]byte, uint64, error) {
	if imported > 0 {
		return nil, 0, errors.New("the module imports a table, which no module juju links exports")
	}
	if body == nil {
		return nil, 0, nil
	}
	r := reader{b: body}
	n := r.u32()
	if r.err == nil && n > MaxTables {
		return nil, 0, fmt.Errorf("the module has %d tables, more than the %d juju allows", n, MaxTables)
	}
	out := binary.AppendUvarint(make([]byte, 0, len(body)+8*int(n)), uint64(n))
	var sum uint64
	for i := uint32(0); i < n && r.err == nil; i++ {
		typ := r.byte()
		if typ != 0x70 && typ != 0x6f { // funcref, externref
			return nil, 0, fmt.Errorf("table %d is of a type not of wasm 2.0 (%#x)", i, typ)
		}
		flags, lo := r.byte(), r.u32()
		hi := uint32(MaxTableEntries)
		switch flags {
		case 0x00:
		case 0x01:
			hi = min(r.u32(), MaxTableEntries)
		default: // shared, 64-bit
			return nil, 0, fmt.Errorf("table %d has limits not of wasm 2.0 (%#x)", i, flags)
		}
		if r.err != nil {
			break
		}
		if lo > MaxTableEntries {
			return nil, 0, fmt.Errorf("table %d starts with %d entries, more than the %d juju allows", i, lo, MaxTableEntries)
		}
		if !grows {
			hi = lo
		}
		if hi < lo {
			return nil, 0, fmt.Errorf("table %d has a maximum under its minimum", i)
		}
		out = append(out, typ, 0x01)
		out = binary.AppendUvarint(out, uint64(lo))
		out = binary.AppendUvarint(out, uint64(hi))
		sum += uint64(hi)
	}
	if r.err != nil || r.off != len(body) {
		return nil, 0, errors.New("the table section is malformed")
	}
	return out, sum, nil
}
