package mcpserver

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/jujutools/juju/sdk/abi"
)

// errorShape is the structured content of every error result.
const errorShape = `{"type":"object","properties":{"code":{"type":"string","enum":%s},"message":{"type":"string"}},"required":["code","message"]}`

// mcpTool turns a manifest's tool spec into an MCP tool.
func mcpTool(spec abi.ToolSpec) (mcp.Tool, error) {
	t := mcp.Tool{
		Name:           spec.Name,
		Description:    spec.Description,
		RawInputSchema: spec.InputSchema,
		Annotations: mcp.ToolAnnotation{
			Title:           spec.Title,
			ReadOnlyHint:    mcp.ToBoolPtr(spec.Annotations.ReadOnly),
			DestructiveHint: mcp.ToBoolPtr(spec.Annotations.Destructive),
			IdempotentHint:  mcp.ToBoolPtr(spec.Annotations.Idempotent),
			OpenWorldHint:   mcp.ToBoolPtr(spec.Annotations.OpenWorld),
		},
	}
	if len(spec.OutputSchema) > 0 {
		out, err := WidenOutputSchema(spec.OutputSchema)
		if err != nil {
			return t, fmt.Errorf("tool %s: output schema: %w", spec.Name, err)
		}
		t.RawOutputSchema = out
	}
	return t, nil
}

// WidenOutputSchema makes an output schema admit the error shape too:
// {"type":"object","anyOf":[declared, error]}.
func WidenOutputSchema(declared json.RawMessage) (json.RawMessage, error) {
	if !abi.ValidJSON(declared) { // encoding/json's scanner is three times slower, at every start
		return nil, fmt.Errorf("declared schema is not valid JSON")
	}
	const head, sep, tail = `{"type":"object","anyOf":[`, `,`, `]}`
	errSchema := errorSchema()
	out := make([]byte, 0, len(head)+len(declared)+len(sep)+len(errSchema)+len(tail))
	out = append(out, head...)
	out = append(out, declared...)
	out = append(out, sep...)
	out = append(out, errSchema...)
	out = append(out, tail...)
	return out, nil
}

// errorSchema is errorShape with the codes filled in, made once: every
// tool with an output schema is widened with it at start.
var errorSchema = sync.OnceValue(func() string {
	codes, err := json.Marshal(abi.Codes)
	if err != nil {
		panic(err) // a []string always marshals
	}
	return fmt.Sprintf(errorShape, codes)
})
