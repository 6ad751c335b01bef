// Command hugeout is a hostile test plugin of ABI 2 written against the
// channel alone (docs/ABI.md), no SDK: its tool and its task discoverer
// answer with an output of tens of megabytes of tiny JSON objects
// ({"content":[{},{},…]} and {"tasks":[{},{},…]}), each of which a
// decoder makes into a struct of a hundred bytes or more — to show that
// the host refuses such an output by its size before decoding it.
package main

import (
	"encoding/binary"
	"encoding/json"
	"io"
	"os"
	"strings"
)

//go:wasmimport juju:channel juju_output
func channelOutput(n uint64) uint64

// description is what juju_describe reports, written by hand.
const description = `{"tools":[{"name":"test_hugeout","description":"Test plugin: answers with mib megabytes of empty content items.","tier":"R",` +
	`"inputSchema":{"type":"object","properties":{"mib":{"type":"integer","description":"Megabytes of output."}},"required":["mib"],"additionalProperties":false},` +
	`"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}}],` +
	`"discoverers":[{"name":"huge","files":["*.huge"]}]}`

// input reads the call's input from stdin: its length (u32, little
// endian), then the bytes.
func input() []byte {
	var size [4]byte
	if _, err := io.ReadFull(os.Stdin, size[:]); err != nil {
		return nil
	}
	b := make([]byte, binary.LittleEndian.Uint32(size[:]))
	io.ReadFull(os.Stdin, b)
	return b
}

//go:wasmexport juju_describe
func describe() int32 {
	os.Stdout.WriteString(description)
	channelOutput(uint64(len(description)))
	return 0
}

//go:wasmexport juju_call
func call() int32 {
	var req struct {
		Arguments struct {
			MiB int `json:"mib"`
		} `json:"arguments"`
	}
	json.Unmarshal(input(), &req)
	flood(`{"content":[`, req.Arguments.MiB<<20, true)
	return 0
}

// juju_discover answers with as many empty tasks as the MiB its first
// file's name gives (60.huge: 60 MiB).
//
//go:wasmexport juju_discover
func discover() int32 {
	var req struct {
		Files []string `json:"files"`
	}
	json.Unmarshal(input(), &req)
	mib := 0
	if len(req.Files) > 0 {
		name := req.Files[0][strings.LastIndex(req.Files[0], "/")+1:]
		for _, c := range strings.TrimSuffix(name, ".huge") {
			mib = mib*10 + int(c-'0')
		}
	}
	flood(`{"tasks":[`, mib<<20, false)
	return 0
}

// flood outputs head, then {}, repeated to about n bytes, then {}]}: a
// megabyte written at a time, so the guest never holds it all. framed, it
// is the header of a frame (a juju_call result): its length comes first.
func flood(head string, n int, framed bool) {
	chunk := strings.Repeat("{},", 1<<20/3)
	size := len(head)
	for size < n {
		size += min(len(chunk), (n-size+2)/3*3)
	}
	size += 4 // {}]}
	total := size
	if framed {
		os.Stdout.Write(binary.LittleEndian.AppendUint32(nil, uint32(size)))
		total += 4
	}
	os.Stdout.WriteString(head)
	for off := len(head); off < n; {
		k := min(len(chunk), (n-off+2)/3*3)
		os.Stdout.WriteString(chunk[:k])
		off += k
	}
	os.Stdout.WriteString("{}]}")
	channelOutput(uint64(total))
}

func main() {}
