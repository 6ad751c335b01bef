//go:build rawtopanyof

package main

// A plugin whose tool's input schema has anyOf at its top, which juju
// refuses: a model's API refuses every request holding such a tool.
func init() {
	echoInput = `{"type":"object","properties":{"text":{"type":"string","description":"The text to send back."}},"anyOf":[{"required":["text"]}],"additionalProperties":false}`
}
