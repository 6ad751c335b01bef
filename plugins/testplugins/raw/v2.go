//go:build rawv2

package main

func init() {
	echoPrefix = "raw v2: "
	echoInput = `{"type":"object","properties":{"text":{"type":"string","description":"The text to send back."},"times":{"type":"integer","minimum":1,"description":"How many times to send it back."}},"required":["text"],"additionalProperties":false}`
}
