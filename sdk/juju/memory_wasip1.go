//go:build wasip1

package juju

import "encoding/binary"

// The Extism kernel's memory functions. Extism keeps call input, output and
// host function frames in the kernel's own memory, which a guest reads and
// writes through these imports, eight bytes a call. The byte-wise variants
// are costly calls into the kernel, so a block of eight bytes or more is
// moved with eight-byte calls only, the last one overlapping the one before
// it. (Extism's go-sdk accepts unaligned eight-byte accesses.)

//go:wasmimport extism:host/env alloc
func extismAlloc(n uint64) uint64

//go:wasmimport extism:host/env free
func extismFree(offset uint64)

//go:wasmimport extism:host/env length
func extismLength(offset uint64) uint64

//go:wasmimport extism:host/env load_u64
func extismLoadU64(offset uint64) uint64

//go:wasmimport extism:host/env load_u8
func extismLoadU8(offset uint64) uint32

//go:wasmimport extism:host/env store_u64
func extismStoreU64(offset, v uint64)

//go:wasmimport extism:host/env store_u8
func extismStoreU8(offset uint64, v uint32)

//go:wasmimport extism:host/env input_length
func extismInputLength() uint64

//go:wasmimport extism:host/env input_load_u64
func extismInputLoadU64(offset uint64) uint64

//go:wasmimport extism:host/env input_load_u8
func extismInputLoadU8(offset uint64) uint32

//go:wasmimport extism:host/env output_set
func extismOutputSet(offset, n uint64)

//go:wasmimport extism:host/env error_set
func extismErrorSet(offset uint64)

// load copies n bytes at offset (through load64 and load8) into a new slice.
func load(offset, n uint64, load64 func(uint64) uint64, load8 func(uint64) uint32) []byte {
	b := make([]byte, n)
	if n < 8 {
		for i := range n {
			b[i] = byte(load8(offset + i))
		}
		return b
	}
	for i := uint64(0); i+8 <= n; i += 8 {
		binary.LittleEndian.PutUint64(b[i:], load64(offset+i))
	}
	if n%8 != 0 {
		binary.LittleEndian.PutUint64(b[n-8:], load64(offset+n-8))
	}
	return b
}

// store writes b into a new kernel block and returns its offset.
func store(b []byte) uint64 {
	n := uint64(len(b))
	offset := extismAlloc(n)
	if n < 8 {
		for i := range n {
			extismStoreU8(offset+i, uint32(b[i]))
		}
		return offset
	}
	for i := uint64(0); i+8 <= n; i += 8 {
		extismStoreU64(offset+i, binary.LittleEndian.Uint64(b[i:]))
	}
	if n%8 != 0 {
		extismStoreU64(offset+n-8, binary.LittleEndian.Uint64(b[n-8:]))
	}
	return offset
}

// input returns the call's input.
func input() []byte {
	return load(0, extismInputLength(), extismInputLoadU64, extismInputLoadU8)
}

// output sets the call's output.
func output(b []byte) {
	extismOutputSet(store(b), uint64(len(b)))
}

// setError sets the call's error message.
func setError(msg string) {
	extismErrorSet(store([]byte(msg)))
}

// readBlock returns the bytes of the kernel block at offset.
func readBlock(offset uint64) []byte {
	return load(offset, extismLength(offset), extismLoadU64, extismLoadU8)
}
