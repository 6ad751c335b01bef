//go:build wasip1

package juju

import (
	"encoding/binary"
	"runtime"
	"syscall"
	"unsafe"
)

// The channel (ABI 2, see package abi): bytes cross to the host by writing
// stdout and come back by reading stdin, each a single copy between this
// module's memory and the host done by WASI's fd_write and fd_read. The
// host function calls and juju_output only say how many bytes. A frame is
// written in one fd_write of several pieces (its length, its header, the
// parts of its body), so nothing is copied to join them.

//go:wasmimport juju:channel juju_output
func channelOutput(n uint64) uint64

//go:wasmimport wasi_snapshot_preview1 fd_write
func fdWrite(fd int32, iovs unsafe.Pointer, iovsLen int32, nwritten unsafe.Pointer) int32

// iovec is WASI's: a 32-bit address and length in this module's memory.
type iovec struct {
	buf uint32
	len uint32
}

// scratch is what a write hands WASI by address: fixed places rather than
// an allocation per write (memory passed to an import escapes to the heap,
// and inside wasm every allocation costs microseconds). A module runs one
// goroutine at a time and a write never waits, so one set serves them all.
var scratch struct {
	iovs   [4]iovec
	n      uint32
	prefix [4]byte
}

// writev writes the pieces to stdout whole, in one fd_write when it can.
func writev(pieces ...[]byte) bool {
	iovs := scratch.iovs[:0]
	if len(pieces) > len(scratch.iovs) {
		iovs = make([]iovec, 0, len(pieces))
	}
	for _, p := range pieces {
		if len(p) > 0 {
			iovs = append(iovs, iovec{uint32(uintptr(unsafe.Pointer(unsafe.SliceData(p)))), uint32(len(p))})
		}
	}
	for len(iovs) > 0 {
		scratch.n = 0
		errno := fdWrite(1, unsafe.Pointer(unsafe.SliceData(iovs)), int32(len(iovs)), unsafe.Pointer(&scratch.n))
		runtime.KeepAlive(pieces)
		n := scratch.n
		if errno != 0 || n == 0 {
			return false
		}
		// A short write: skip what was written, go on with the rest.
		for len(iovs) > 0 && n >= iovs[0].len {
			n -= iovs[0].len
			iovs = iovs[1:]
		}
		if len(iovs) > 0 {
			iovs[0].buf += n
			iovs[0].len -= n
		}
	}
	return true
}

// sendFrame writes a frame of header and body parts and returns its length.
func sendFrame(header []byte, body ...[]byte) (uint64, bool) {
	prefix := scratch.prefix[:]
	binary.LittleEndian.PutUint32(prefix, uint32(len(header)))
	n := uint64(4 + len(header))
	for _, p := range body {
		n += uint64(len(p))
	}
	var ok bool
	switch len(body) {
	case 0:
		ok = writev(prefix, header)
	case 1:
		ok = writev(prefix, header, body[0])
	case 2:
		ok = writev(prefix, header, body[0], body[1])
	default:
		ok = writev(append([][]byte{prefix, header}, body...)...)
	}
	return n, ok
}

// receive reads the n bytes the host staged.
func receive(n uint64) ([]byte, bool) {
	if n > maxReceive {
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
	if writev(b) {
		channelOutput(uint64(len(b)))
	}
}

// outputFrame hands a result frame to the host as the call's output.
func outputFrame(f *frame) {
	if n, ok := sendFrame(f.header, f.body.parts...); ok {
		channelOutput(n)
	}
}

// setError makes msg the output of a failed export.
func setError(msg string) {
	output([]byte(msg))
}
