//go:build rawdialect

package main

// A plugin whose tool schema declares JSON Schema draft-07, which juju
// refuses: MCP's dialect is 2020-12, and a model's API refuses every
// request that carries a schema of draft-07.
func init() {
	echoInput = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"text":{"type":"string","description":"The text to send back."}},"required":["text"],"additionalProperties":false}`
}
