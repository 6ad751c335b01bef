package test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

var readTools = []string{"list_directory", "read_file", "read_files", "file_info", "glob_files"}

func TestToolsListedWithValidSchemas(t *testing.T) {
	s := start(t, workspace(t, map[string]string{"a.txt": "a\n"}))
	if s.init.ServerInfo.Name != "juju" {
		t.Errorf("server name %q", s.init.ServerInfo.Name)
	}
	if s.init.Instructions == "" {
		t.Error("no server instructions")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list, err := s.c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]mcp.Tool{}
	for _, tool := range list.Tools {
		byName[tool.Name] = tool
	}
	onWire := map[string]wireTool{}
	for _, tool := range wireToolsList(t) {
		onWire[tool.Name] = tool
	}
	for _, name := range readTools {
		tool, ok := byName[name]
		if !ok {
			t.Errorf("tool %s missing from tools/list", name)
			continue
		}
		if tool.Description == "" {
			t.Errorf("%s: no description", name)
		}
		if a := tool.Annotations; a.ReadOnlyHint == nil || !*a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint {
			t.Errorf("%s: read tools must be readOnly and not destructive: %+v", name, a)
		}
		wire := onWire[name] // as sent: mcp-go's client keeps little of an output schema
		if _, err := manifest.CompileSchema(name+".in", wire.InputSchema); err != nil {
			t.Errorf("%s: input schema: %v", name, err)
		}
		if len(wire.OutputSchema) == 0 {
			t.Errorf("%s: no output schema", name)
			continue
		}
		out, err := manifest.CompileSchema(name+".out", wire.OutputSchema)
		if err != nil {
			t.Errorf("%s: output schema: %v", name, err)
			continue
		}
		// Every output schema must admit the error shape (SPEC §10).
		errVal, _ := jsonschema.UnmarshalJSON(jsonReader(`{"code":"NOT_FOUND","message":"no such file; list the folder first"}`))
		if err := out.Validate(errVal); err != nil {
			t.Errorf("%s: output schema rejects the error shape: %v", name, err)
		}
	}
}

// Successful structured content validates against the advertised output schema.
func TestStructuredContentMatchesOutputSchema(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "one\ntwo\n", "d/b.go": "package b\n"})
	s := start(t, root)
	schemas := outputSchemas(t, s)
	calls := map[string]map[string]any{
		"list_directory": {"path": "."},
		"read_file":      {"path": "a.txt"},
		"read_files":     {"paths": []any{"a.txt", "missing.txt"}},
		"file_info":      {"path": "a.txt"},
		"glob_files":     {"pattern": "**/*.go"},
	}
	for tool, args := range calls {
		res := s.call(tool, args)
		raw, _ := json.Marshal(structured(t, res))
		v, _ := jsonschema.UnmarshalJSON(jsonReader(string(raw)))
		if sch := schemas[tool]; sch == nil {
			t.Errorf("%s: no output schema", tool)
		} else if err := sch.Validate(v); err != nil {
			t.Errorf("%s: structured content %s does not match the output schema: %v", tool, raw, err)
		}
	}
}

func TestErrorCodesAreTheClosedSet(t *testing.T) {
	s := start(t, workspace(t, map[string]string{"a.txt": "a"}))
	res := s.call("read_file", map[string]any{"path": "nope.txt"})
	got := structured(t, res)
	if !abi.Code(got["code"].(string)).Valid() {
		t.Fatalf("code %v is not in SPEC §10", got["code"])
	}
}

// outputSchemas compiles the output schema of every core tool as
// tools/list sends it (wireToolsList: mcp-go's client keeps too little of
// an output schema to check against). s is the session the schemas are
// used in; its tools must be the core ones.
func outputSchemas(t *testing.T, s *session) map[string]*jsonschema.Schema {
	t.Helper()
	out := map[string]*jsonschema.Schema{}
	for _, tool := range wireToolsList(t) {
		if len(tool.OutputSchema) > 0 {
			sch, err := manifest.CompileSchema(tool.Name, tool.OutputSchema)
			if err != nil {
				t.Fatalf("%s: output schema: %v", tool.Name, err)
			}
			out[tool.Name] = sch
		}
	}
	return out
}
