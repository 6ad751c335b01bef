//go:build rawcostlyschema

package main

import "strings"

// test_raw_echo declares an output schema whose oneOf applies one
// definition twice to every item, and answers 30 arrays nested in each
// other: 66 bytes that a validator checks 2^30 times over.
// Its input schema takes such arrays too, as "a".
func init() {
	echoInput = `{"type":"object","properties":{"text":{"type":"string"},"a":{"$ref":"#/$defs/n"}},"required":["text"],"additionalProperties":false,` +
		`"$defs":{"n":{"oneOf":[{"type":"array","items":{"$ref":"#/$defs/n"}},{"type":"array","items":{"$ref":"#/$defs/n"}}]}}}`
	echoOutput = `"outputSchema":{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}},"$defs":{"n":{"oneOf":[{"type":"array","items":{"$ref":"#/$defs/n"}},{"type":"array","items":{"$ref":"#/$defs/n"}}]}}},`
	echoResult = func(string) (uint64, uint64) {
		b := []byte(`{"content":[{"type":"text","text":"nested"}],"structured":{"a":` + strings.Repeat("[", 30) + strings.Repeat("]", 30) + `}}`)
		return block(b), uint64(len(b))
	}
}
