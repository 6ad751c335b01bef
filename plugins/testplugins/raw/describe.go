//go:build !rawnodescribe && !rawdescribetrap && !rawhugedescribe

package main

// description is the plugin's juju_describe output.
func description() string {
	return `{"tools":[
{"name":"test_raw_echo","description":"Test plugin raw: returns its text.","tier":"R",
 "inputSchema":` + echoInput + `,` + echoOutput + `
 "annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}},
{"name":"test_raw_fail","description":"Test plugin raw: fails with an Extism error.","tier":"R",
 "inputSchema":{"type":"object","properties":{"text":{"type":"string"}},"additionalProperties":false},
 "annotations":{"readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}}]}`
}

//go:wasmexport juju_describe
func describe() int32 {
	output([]byte(description()))
	return 0
}
