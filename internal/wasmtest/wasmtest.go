// Package wasmtest writes small wasm binaries byte by byte, for the tests
// of juju's readers of wasm imports and exports (host/plugin,
// host/pluginbuild). Lengths are single bytes: keep what they build small.
package wasmtest

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
