package plugin

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/jujutools/juju/internal/wasmstop"
	"github.com/jujutools/juju/sdk/abi"
)

// errWasm reports a module whose import section cannot be read.
var errWasm = errors.New("plugin: not a readable wasm module")

// Import is one import of a module: where from, what, and its kind
// (0 function, 1 table, 2 memory, 3 global).
type Import struct {
	Module, Name string
	Kind         byte
}

// ModuleInfo reads a module's imports and the names of the functions it
// exports, straight from the binary's import and export sections (no
// compilation). A module with a start section is refused
// (wasmstop.ErrStart): wazero would run its start function while it
// instantiates the module, where no deadline can stop it. Nor is one whose
// counts (locals, entries, names) are past what its bytes hold
// (wasmstop.ErrCounts): wazero allocates by them while it decodes, and a
// module of a hundred bytes took gigabytes. Every path that accepts a
// module reads it here first, before wazero sees it: build, install and
// load.
func ModuleInfo(wasm []byte) (imports []Import, exports []string, err error) {
	if len(wasm) < 8 || !bytes.Equal(wasm[:8], []byte("\x00asm\x01\x00\x00\x00")) {
		return nil, nil, errWasm
	}
	if err := wasmstop.CheckCounts(wasm); err != nil {
		return nil, nil, err
	}
	r := &reader{b: wasm[8:]}
	for len(r.b) > 0 {
		id := r.byte()
		size := r.uint()
		if r.err != nil || size > uint64(len(r.b)) {
			return nil, nil, errWasm
		}
		body := &reader{b: r.b[:size]}
		r.b = r.b[size:]
		switch id {
		case 2: // the import section
			if imports, err = readImports(body); err != nil {
				return nil, nil, err
			}
		case 7: // the export section
			if exports, err = readExports(body); err != nil {
				return nil, nil, err
			}
		case 8: // the start section
			return nil, nil, wasmstop.ErrStart
		}
	}
	return imports, exports, nil
}

// ImportedFuncs lists the functions a wasm module imports from module ns.
func ImportedFuncs(wasm []byte, ns string) ([]string, error) {
	imports, _, err := ModuleInfo(wasm)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, im := range imports {
		if im.Kind == 0x00 && im.Module == ns {
			out = append(out, im.Name)
		}
	}
	return out, nil
}

func readImports(r *reader) ([]Import, error) {
	var out []Import
	for n := r.uint(); n > 0 && r.err == nil; n-- {
		im := Import{Module: r.name(), Name: r.name(), Kind: r.byte()}
		switch im.Kind {
		case 0x00: // function: a type index
			r.uint()
		case 0x01: // table: a reference type and limits
			r.byte()
			r.limits()
		case 0x02: // memory: limits
			r.limits()
		case 0x03: // global: a value type and mutability
			r.byte()
			r.byte()
		default:
			r.err = fmt.Errorf("import kind %#x", im.Kind)
		}
		out = append(out, im)
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: %v", errWasm, r.err)
	}
	return out, nil
}

func readExports(r *reader) ([]string, error) {
	var out []string
	for n := r.uint(); n > 0 && r.err == nil; n-- {
		name, kind := r.name(), r.byte()
		r.uint() // the index
		if kind == 0x00 {
			out = append(out, name)
		}
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: %v", errWasm, r.err)
	}
	return out, nil
}

// reader decodes the few wasm encodings the import section uses; the first
// error sticks and every later read returns zero.
type reader struct {
	b   []byte
	err error
}

func (r *reader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.fail()
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

// uint reads an unsigned LEB128 number.
func (r *reader) uint() uint64 {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		c := r.byte()
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 || r.err != nil {
			return v
		}
	}
	r.fail()
	return 0
}

func (r *reader) name() string {
	n := r.uint()
	if r.err != nil || n > uint64(len(r.b)) {
		r.fail()
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *reader) limits() {
	flags := r.byte()
	r.uint()
	if flags&1 != 0 {
		r.uint()
	}
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = errors.New("unexpected end of section")
	}
	r.b = nil
}

// ModuleABI reports the ABI a module speaks, read from its imports: ABI 2
// (abi.VersionChannel) when it imports abi.ChannelOutput, through which
// every ABI 2 export hands back its output; ABI 1 otherwise.
func ModuleABI(wasm []byte) (int, error) {
	imports, _, err := ModuleInfo(wasm)
	if err != nil {
		return 0, err
	}
	return moduleABI(imports), nil
}

// moduleABI is ModuleABI of a module's imports.
func moduleABI(imports []Import) int {
	for _, im := range imports {
		if im.Kind == 0x00 && im.Module == abi.ChannelNamespace && im.Name == abi.ChannelOutput {
			return abi.VersionChannel
		}
	}
	return abi.VersionKernel
}
