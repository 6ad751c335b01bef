//go:build wasip1

package juju

import "unsafe"

// randomGet is WASI's random_get. A plugin calls it directly rather than
// through crypto/rand, which would link Go's FIPS module into every
// plugin (about 90 KB of its wasm code, 2% of core's, and the packages'
// initialisation at each instance's start) for eight bytes a fence.
//
//go:wasmimport wasi_snapshot_preview1 random_get
func randomGet(buf unsafe.Pointer, n uint32) uint32

// randomBytes fills b with random bytes. random_get fails only when the
// host has no source of randomness; a fence then must not be guessable
// from its text, so the plugin stops.
func randomBytes(b []byte) {
	if errno := randomGet(unsafe.Pointer(unsafe.SliceData(b)), uint32(len(b))); errno != 0 {
		panic("juju: random_get failed")
	}
}
