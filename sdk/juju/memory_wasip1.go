//go:build wasip1

package juju

import (
	"encoding/binary"
	"syscall"
)

// The channel (ABI 2, see package abi): bytes cross to the host by writing
// stdout and come back by reading stdin, each a single copy between this
// module's memory and the host done by WASI's fd_write and fd_read. The
// host function calls and juju_output only say how many bytes.

//go:wasmimport juju:channel juju_output
func channelOutput(n uint64) uint64

// send writes b to the channel whole.
func send(b []byte) bool {
	for len(b) > 0 {
		n, err := syscall.Write(1, b)
		if err != nil || n <= 0 {
			return false
		}
		b = b[n:]
	}
	return true
}

// receive reads the n bytes the host staged.
func receive(n uint64) ([]byte, bool) {
	if n > uint64(maxReceive) {
		return nil, false
	}
	b := make([]byte, n)
	return b, fill(b)
}

// maxReceive bounds what one answer may make the plugin allocate: more
// than wasm32 memory holds is a broken host.
const maxReceive = 1<<32 - 1

// fill reads from the channel until b is full.
func fill(b []byte) bool {
	for len(b) > 0 {
		n, err := syscall.Read(0, b)
		if err != nil || n <= 0 {
			return false
		}
		b = b[n:]
	}
	return true
}

// input returns the call's input: a u32 length, then the bytes.
func input() []byte {
	var size [4]byte
	if !fill(size[:]) {
		return nil
	}
	b, ok := receive(uint64(binary.LittleEndian.Uint32(size[:])))
	if !ok {
		return nil
	}
	return b
}

// output hands b to the host as the call's output. A failure leaves the
// call without output, which the host reports as a malformed result.
func output(b []byte) {
	if send(b) {
		channelOutput(uint64(len(b)))
	}
}

// setError makes msg the output of a failed export.
func setError(msg string) {
	output([]byte(msg))
}
