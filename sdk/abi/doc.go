// Package abi holds the wire contract between the juju host and its wasm
// plugins: the ABI version, the closed set of error codes, the capability
// names, the names of the host functions, the frame codec used on every host
// function call, and the request and result structs that travel in frames.
//
// The result structs that tools return as their structured content, as
// they are or embedded, carry the desc, enum and jsonschema tags the SDK's
// schema generator reads (see package juju), so each is described once.
//
// Both sides import it: the host (native Go) and the guest SDK (GOOS=wasip1).
// It therefore depends on the standard library alone. docs/ABI.md describes
// the same contract in prose for authors who write plugins in other languages.
package abi

// Version is the plugin ABI version this package describes. A manifest names
// the version it was built for; the host refuses any other.
const Version = 1
