// Command kernel is a test plugin of ABI 1, the ordinary Extism convention,
// written with the Extism Go PDK alone (not juju's SDK), as a plugin in
// another language would be: its exports take their input and give their
// output through Extism, and it calls juju_fs_read through Extism kernel
// memory blocks. It proves that such plugins keep working beside ABI 2.
package main

import (
	"encoding/binary"
	"encoding/json"
	"strconv"

	pdk "github.com/extism/go-pdk"
)

//go:wasmimport extism:host/user juju_fs_read
func hostFSRead(uint64) uint64

// description is what juju_describe reports, written by hand.
const description = `{"tools":[{"name":"test_kernel_read","description":"Test plugin (ABI 1): returns the content of a file, read through Extism kernel memory.","tier":"R",` +
	`"inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"The file to read, relative to the first root."},"count":{"type":"boolean","description":"Return the number of bytes read instead of the text."}},"required":["path"],"additionalProperties":false},` +
	`"annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}}]}`

//go:wasmexport juju_describe
func describe() int32 {
	pdk.OutputString(description)
	return 0
}

type callRequest struct {
	Tool      string `json:"tool"`
	Arguments struct {
		Path  string `json:"path"`
		Count bool   `json:"count"`
	} `json:"arguments"`
}

type abiError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

type content struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type callResult struct {
	Content []content `json:"content,omitempty"`
	Error   *abiError `json:"error,omitempty"`
}

//go:wasmexport juju_call
func call() int32 {
	var req callRequest
	var res callResult
	if err := json.Unmarshal(pdk.Input(), &req); err != nil || req.Tool != "test_kernel_read" {
		res.Error = &abiError{Code: "INVALID_ARGUMENT", Message: "this plugin has only test_kernel_read"}
	} else if text, err := read(req.Arguments.Path); err != nil {
		res.Error = err
	} else if req.Arguments.Count {
		res.Content = []content{{Type: "text", Text: strconv.Itoa(len(text))}}
	} else {
		res.Content = []content{{Type: "text", Text: text}}
	}
	out, _ := json.Marshal(res)
	pdk.Output(out)
	return 0
}

// read calls juju_fs_read: a frame (u32 header length, JSON header, body)
// in a kernel block, the answer another.
func read(path string) (string, *abiError) {
	header, _ := json.Marshal(map[string]string{"path": path})
	frame := binary.LittleEndian.AppendUint32(nil, uint32(len(header)))
	frame = append(frame, header...)
	mem := pdk.AllocateBytes(frame)
	defer mem.Free()
	off := hostFSRead(mem.Offset())
	if off == 0 {
		return "", &abiError{Code: "INTERNAL", Message: "no answer"}
	}
	block := pdk.FindMemory(off)
	resp := block.ReadBytes()
	if len(resp) < 4 || uint64(binary.LittleEndian.Uint32(resp)) > uint64(len(resp)-4) {
		return "", &abiError{Code: "INTERNAL", Message: "a malformed answer"}
	}
	n := binary.LittleEndian.Uint32(resp)
	var status struct {
		Error *abiError `json:"error"`
	}
	if err := json.Unmarshal(resp[4:4+n], &status); err != nil {
		return "", &abiError{Code: "INTERNAL", Message: "a malformed header"}
	}
	if status.Error != nil {
		return "", status.Error
	}
	return string(resp[4+n:]), nil
}

func main() {}
