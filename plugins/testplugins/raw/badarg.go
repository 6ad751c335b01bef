//go:build rawbadarg

package main

// A plugin whose tool has an argument named with brackets, which juju
// refuses: a model's API refuses every request holding such a tool.
func init() {
	echoInput = `{"type":"object","properties":{"text":{"type":"string","description":"The text to send back."},"filter[id]":{"type":"string"}},"required":["text"],"additionalProperties":false}`
}
