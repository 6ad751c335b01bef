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

// ABI versions. A manifest names the version its plugin speaks; the host
// serves both and refuses any other.
const (
	// VersionKernel is ABI 1, the ordinary Extism convention: call input
	// and output, and every host function's frames, live in Extism kernel
	// memory blocks (HostNamespace). Any Extism PDK can speak it.
	VersionKernel = 1
	// VersionChannel is ABI 2, the channel: the host functions of
	// ChannelNamespace move frames, and the exports their input and
	// output, through the instance's WASI stdin and stdout, one copy
	// each way (see channel.go). The Go SDK speaks it.
	VersionChannel = 2

	// Version is the ABI this package's SDK speaks, the newest.
	Version = VersionChannel
)
