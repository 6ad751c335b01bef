//go:build rawhugedescribe

package main

import (
	"encoding/binary"
	"strconv"
)

// describeBytes is the size of the description, 5 MiB unless the build
// sets another (-ldflags -X main.describeBytes=N).
var describeBytes = "5242880"

// describe returns a description of describeBytes bytes, valid JSON whose
// one tool's description fills it, as a plugin that embeds a file in its
// description by mistake does.
//
//go:wasmexport juju_describe
func describe() int32 {
	n, _ := strconv.Atoi(describeBytes)
	head := `{"tools":[{"name":"test_raw_echo","description":"`
	tail := `","tier":"R","inputSchema":` + echoInput + `,"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}}]}`
	b := make([]byte, 0, n+8)
	b = append(b, head...)
	for len(b) < n-len(tail) {
		b = append(b, 'x')
	}
	b = append(b, tail...)
	// Eight bytes at a time: a byte at a time, 40 MB takes seconds.
	off := alloc(uint64(len(b)))
	for i := 0; i < len(b); i += 8 {
		var w [8]byte
		copy(w[:], b[i:])
		if len(b)-i >= 8 {
			storeU64(off+uint64(i), binary.LittleEndian.Uint64(w[:]))
		} else {
			for j := i; j < len(b); j++ {
				storeU8(off+uint64(j), uint32(b[j]))
			}
		}
	}
	outputSet(off, uint64(len(b)))
	return 0
}
