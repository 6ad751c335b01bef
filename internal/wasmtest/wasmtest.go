// Package wasmtest writes small wasm binaries byte by byte, for the tests
// of juju's readers and rewriters of wasm (host/plugin, host/pluginbuild,
// internal/wasmstop). Module, Import and Exports write lengths as single
// bytes: keep what they build small; Binary and the helpers after it
// write LEB128.
package wasmtest

import "encoding/binary"

// Module is a wasm binary with one function type, () -> (), and the given
// import section body.
func Module(imports []byte) []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	b = append(b, 1, 4, 1, 0x60, 0, 0) // a type section: one func type () -> ()
	b = append(b, 2, byte(len(imports)))
	return append(b, imports...)
}

// Import is one entry of an import section: module, name and the import's
// description (kind and type).
func Import(mod, name string, desc ...byte) []byte {
	b := append([]byte{byte(len(mod))}, mod...)
	b = append(b, byte(len(name)))
	b = append(b, name...)
	return append(b, desc...)
}

// Exports is an export section naming functions (each index 0).
func Exports(names ...string) []byte {
	body := []byte{byte(len(names))}
	for _, n := range names {
		body = append(body, byte(len(n)))
		body = append(body, n...)
		body = append(body, 0x00, 0) // a function, index 0
	}
	return append([]byte{7, byte(len(body))}, body...)
}

// Binary is a wasm binary of the given sections, in the order given.
func Binary(sections ...[]byte) []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	for _, s := range sections {
		b = append(b, s...)
	}
	return b
}

// Section is a section of id with the body given, its length in LEB128.
func Section(id byte, body ...byte) []byte {
	return append(binary.AppendUvarint([]byte{id}, uint64(len(body))), body...)
}

// Vec is a vector of the items given, each already encoded.
func Vec(items ...[]byte) []byte {
	b := binary.AppendUvarint(nil, uint64(len(items)))
	for _, it := range items {
		b = append(b, it...)
	}
	return b
}

// Name is s as a wasm name: its length, then its bytes.
func Name(s string) []byte { return append(binary.AppendUvarint(nil, uint64(len(s))), s...) }

// Body is a function body of the code section, without locals: its size,
// then no local declaration, then code (which ends with its own 0x0b).
func Body(code ...byte) []byte {
	b := append([]byte{0x00}, code...)
	return append(binary.AppendUvarint(nil, uint64(len(b))), b...)
}
