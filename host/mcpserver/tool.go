package mcpserver

import (
	"encoding/json"
	"fmt"

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
	codes, err := json.Marshal(abi.Codes)
	if err != nil {
		return nil, err
	}
	errSchema := fmt.Sprintf(errorShape, codes)
	out := fmt.Sprintf(`{"type":"object","anyOf":[%s,%s]}`, declared, errSchema)
	if !json.Valid([]byte(out)) {
		return nil, fmt.Errorf("declared schema is not valid JSON")
	}
	return json.RawMessage(out), nil
}
