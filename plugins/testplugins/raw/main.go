// Command raw is a test plugin written against juju's ABI (docs/ABI.md)
// and the raw Extism ABI alone: no juju SDK, no Extism PDK, as an author in
// another language would write one. It is built with a plain `go build`
// and its manifest written by `juju plugins build --wasm`. Build tags make
// the mistakes such an author meets: rawabort imports env.abort (as
// AssemblyScript does), rawnodescribe leaves out juju_describe,
// rawdescribetrap makes it trap, rawhugedescribe makes it return 5 MiB
// (or the -ldflags -X main.describeBytes=N given), rawhugefail makes
// test_raw_fail's error 64 MiB, rawhugestructured gives test_raw_echo an
// output schema and a structured content of 64 MiB, rawhugecontent gives
// it 17 MiB of text content items, rawcostlyschema one
// that costs a validator 2^30 steps and a structured content of 66 bytes
// that does, rawdialect declares a schema of
// draft-07, rawtopanyof puts anyOf at an input schema's top, rawbadarg
// names an argument filter[id]; rawv2 is a
// new version of the code (its echo says so, and takes a new argument,
// times), for updates.
package main

import (
	"encoding/binary"
	"encoding/json"
	"os"
)

// The Extism kernel's memory and I/O functions.

//go:wasmimport extism:host/env input_length
func inputLength() uint64

//go:wasmimport extism:host/env input_load_u8
func inputLoadU8(offset uint64) uint32

//go:wasmimport extism:host/env output_set
func outputSet(offset, length uint64)

//go:wasmimport extism:host/env error_set
func errorSet(offset uint64)

//go:wasmimport extism:host/env alloc
func alloc(length uint64) uint64

//go:wasmimport extism:host/env free
func free(offset uint64)

//go:wasmimport extism:host/env length
func length(offset uint64) uint64

//go:wasmimport extism:host/env load_u8
func loadU8(offset uint64) uint32

//go:wasmimport extism:host/env store_u8
func storeU8(offset uint64, v uint32)

//go:wasmimport extism:host/env store_u64
func storeU64(offset uint64, v uint64)

// juju's log host function: a request frame in, a response frame out.
//
//go:wasmimport extism:host/user juju_log
func jujuLog(offset uint64) uint64

// input reads the call's input.
func input() []byte {
	b := make([]byte, inputLength())
	for i := range b {
		b[i] = byte(inputLoadU8(uint64(i)))
	}
	return b
}

// block copies b into a new Extism memory block; the caller frees it.
func block(b []byte) uint64 {
	off := alloc(uint64(len(b)))
	for i, c := range b {
		storeU8(off+uint64(i), uint32(c))
	}
	return off
}

// read copies the Extism memory block at off.
func read(off uint64) []byte {
	b := make([]byte, length(off))
	for i := range b {
		b[i] = byte(loadU8(off + uint64(i)))
	}
	return b
}

// output sets the call's output (the kernel owns the block from here).
func output(b []byte) { outputSet(block(b), uint64(len(b))) }

// logLine sends one line to juju's log: a frame of a JSON header and no body.
func logLine(msg string) {
	header, _ := json.Marshal(map[string]string{"level": "info", "message": msg})
	frame := binary.LittleEndian.AppendUint32(nil, uint32(len(header)))
	frame = append(frame, header...)
	req := block(frame)
	resp := jujuLog(req)
	free(req)
	if resp != 0 {
		read(resp) // {} on success
		free(resp)
	}
}

// failure is the Extism memory block of test_raw_fail's error message.
var failure = func(text string) uint64 {
	return block([]byte("the raw plugin failed on purpose: " + text))
}

// echoPrefix starts test_raw_echo's answer.
var echoPrefix = "raw: "

// echoOutput is test_raw_echo's "outputSchema" member and a comma, or
// nothing.
var echoOutput = ""

// echoResult, when set, makes test_raw_echo's output: the offset and
// length of an Extism block holding it.
var echoResult func(text string) (offset, length uint64)

// echoInput is test_raw_echo's input schema.
var echoInput = `{"type":"object","properties":{"text":{"type":"string","description":"The text to send back."}},"required":["text"],"additionalProperties":false}`

//go:wasmexport juju_call
func call() int32 {
	var req struct {
		Tool      string `json:"tool"`
		Arguments struct {
			Text  string `json:"text"`
			Times int    `json:"times"`
		} `json:"arguments"`
	}
	if err := json.Unmarshal(input(), &req); err != nil {
		errorSet(block([]byte("raw: the input is not JSON")))
		return 1
	}
	var res any
	switch req.Tool {
	case "test_raw_echo":
		logLine("raw plugin echoes " + req.Arguments.Text)
		if echoResult != nil {
			outputSet(echoResult(req.Arguments.Text))
			return 0
		}
		text := echoPrefix + req.Arguments.Text
		for i := 1; i < req.Arguments.Times; i++ {
			text += " " + req.Arguments.Text
		}
		res = map[string]any{"content": []any{map[string]string{"type": "text", "text": text}}}
		if req.Arguments.Text == "exit" {
			// As a plugin may end: its output set, then WASI proc_exit(0),
			// which closes the module.
			b, _ := json.Marshal(res)
			output(b)
			os.Exit(0)
		}
	case "test_raw_fail":
		errorSet(failure(req.Arguments.Text))
		return 1
	default:
		// As a PDK fails: an Extism error and a non-zero return (juju's
		// warm-up call, with no tool, lands here too).
		errorSet(block([]byte("raw: no tool " + req.Tool)))
		return 1
	}
	b, _ := json.Marshal(res)
	output(b)
	return 0
}

func main() {}
