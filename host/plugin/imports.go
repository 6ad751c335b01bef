package plugin

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/jujutools/juju/sdk/abi"
)

// errWasm reports a module whose import section cannot be read.
var errWasm = errors.New("plugin: not a readable wasm module")

// ImportedFuncs lists the functions a wasm module imports from module ns,
// read straight from the binary's import section (no compilation).
func ImportedFuncs(wasm []byte, ns string) ([]string, error) {
	if len(wasm) < 8 || !bytes.Equal(wasm[:8], []byte("\x00asm\x01\x00\x00\x00")) {
		return nil, errWasm
	}
	r := &reader{b: wasm[8:]}
	for len(r.b) > 0 {
		id := r.byte()
		size := r.uint()
		if r.err != nil || size > uint64(len(r.b)) {
			return nil, errWasm
		}
		body := r.b[:size]
		r.b = r.b[size:]
		if id == 2 { // the import section
			return readImports(&reader{b: body}, ns)
		}
	}
	return nil, nil
}

func readImports(r *reader, ns string) ([]string, error) {
	var out []string
	for n := r.uint(); n > 0 && r.err == nil; n-- {
		mod, name := r.name(), r.name()
		switch kind := r.byte(); kind {
		case 0x00: // function: a type index
			r.uint()
			if mod == ns {
				out = append(out, name)
			}
		case 0x01: // table: a reference type and limits
			r.byte()
			r.limits()
		case 0x02: // memory: limits
			r.limits()
		case 0x03: // global: a value type and mutability
			r.byte()
			r.byte()
		default:
			r.err = fmt.Errorf("import kind %#x", kind)
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
	names, err := ImportedFuncs(wasm, abi.ChannelNamespace)
	if err != nil {
		return 0, err
	}
	if slices.Contains(names, abi.ChannelOutput) {
		return abi.VersionChannel, nil
	}
	return abi.VersionKernel, nil
}
