//go:build unix

package test

import (
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestLSPOutputSchemas checks the structured content of every semantic
// tool, answers and errors, LSP-backed and heuristic, against the output
// schema the tool declares (clients built on the TypeScript SDK validate
// it even for errors).
func TestLSPOutputSchemas(t *testing.T) {
	root := fixture(t, "gomod")
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"go_to_definition", map[string]any{"path": "app/main.go", "line": 6, "column": colOf(t, root, "app/main.go", 6, "NewServer", 1)}},
		{"go_to_definition", map[string]any{"path": "missing.go", "line": 1, "column": 1}},
		{"find_references", map[string]any{"symbol": "Server.Run"}},
		{"find_references", map[string]any{}},
		{"find_symbol", map[string]any{"query": "serv"}},
		{"find_symbol", map[string]any{"symbol": "NoSuchThing"}},
		{"document_symbols", map[string]any{"path": "lib/server.go"}},
		{"document_symbols", map[string]any{"path": "lib/server.go", "depth": 1}},
		{"get_diagnostics", map[string]any{"path": "app/main.go"}},
		{"get_diagnostics", map[string]any{}},
	}
	for _, mode := range []struct {
		name string
		home string
	}{{"gopls", lspHome(t, goplsServer(t))}, {"heuristic", lspHome(t)}} {
		t.Run(mode.name, func(t *testing.T) {
			s := startHome(t, mode.home, root, "--mode", "trusted")
			schemas := outputSchemas(t, s)
			for _, c := range calls {
				res := s.call(c.tool, c.args)
				raw, _ := json.Marshal(structured(t, res))
				v, _ := jsonschema.UnmarshalJSON(jsonReader(string(raw)))
				if sch := schemas[c.tool]; sch == nil {
					t.Errorf("%s: no output schema", c.tool)
				} else if err := sch.Validate(v); err != nil {
					t.Errorf("%s %v: structured content %s does not match the output schema: %v", c.tool, c.args, raw, err)
				}
				if len(text(res)) >= 100_000 || len(raw) >= 100_000 {
					t.Errorf("%s: over the size caps", c.tool)
				}
			}
		})
	}
}
