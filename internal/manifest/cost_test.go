package manifest

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// WithinCost refuses what would take the validator hours, at once, and
// passes schemas that apply each subschema once per value, recursive ones
// included, on instances of a MiB.
func TestWithinCost(t *testing.T) {
	nested := func(d int) string { return `{"a":` + strings.Repeat("[", d) + strings.Repeat("]", d) + `}` }
	for _, c := range []struct {
		name, schema, doc string
		ok                bool
	}{
		{"oneOf of one definition twice", `{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}},"$defs":{"n":{"oneOf":[{"type":"array","items":{"$ref":"#/$defs/n"}},{"type":"array","items":{"$ref":"#/$defs/n"}}]}}}`, nested(30), false},
		{"anyOf with unevaluatedItems", `{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}},"$defs":{"n":{"anyOf":[{"items":{"$ref":"#/$defs/n"}},{"items":{"$ref":"#/$defs/n"}}],"unevaluatedItems":false}}}`, nested(30), false},
		{"not around it", `{"type":"object","properties":{"a":{"not":{"$ref":"#/$defs/n"}}},"$defs":{"n":{"anyOf":[{"type":"array","items":{"$ref":"#/$defs/n"}},{"type":"array","prefixItems":[{"$ref":"#/$defs/n"}]}]}}}`, nested(30), false},
		{"the same, 10 deep", `{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}},"$defs":{"n":{"oneOf":[{"type":"array","items":{"$ref":"#/$defs/n"}},{"type":"array","items":{"$ref":"#/$defs/n"}}]}}}`, nested(10), true},
		{"a tree", `{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}},"$defs":{"n":{"type":"array","items":{"$ref":"#/$defs/n"}}}}`, nested(5000), true},
		{"a cycle of references", `{"type":"object","$ref":"#/$defs/x","$defs":{"x":{"$ref":"#/$defs/y"},"y":{"$ref":"#/$defs/x"}}}`, `{}`, true},
		{"a MiB of integers", `{"type":"object","properties":{"n":{"type":"array","items":{"type":"integer"}}}}`, `{"n":[` + strings.Repeat("0,", 1<<19) + `0]}`, true},
		{"objects", `{"type":"object","properties":{"n":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"additionalProperties":false}}}}`, `{"n":[` + strings.Repeat(`{"a":"x","b":1},`, 60000) + `{}]}`, true},
	} {
		s, err := CompileSchema("x.json", []byte(c.schema))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := WithinCost(s, v, MaxEvaluations); got != c.ok {
			t.Errorf("%s: WithinCost = %v, want %v", c.name, got, c.ok)
		}
	}
}
