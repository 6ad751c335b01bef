package pluginbuild

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

var update = flag.Bool("update", false, "rewrite the plugins' source manifests from their describe exports")

// The committed manifests are golden snapshots of the schemas the SDK
// generates from each plugin's Go types.
func TestManifestsMatchDescribe(t *testing.T) {
	sources := pluginSources(t)
	for _, src := range sources {
		t.Run(src, func(t *testing.T) {
			committed, err := ReadSource(repo(src))
			if err != nil {
				t.Fatal(err)
			}
			// A plugin that runs another's module is described by it.
			var id struct {
				Name string        `json:"name"`
				Wasm manifest.Wasm `json:"wasm"`
			}
			if err := json.Unmarshal(committed, &id); err != nil {
				t.Fatal(err)
			}
			built := src
			if id.Wasm.Module != "" {
				built = sourceOf(t, sources, id.Wasm.Module)
			}
			wasm, err := os.ReadFile(filepath.Join(ForTest(t, repo(built)), WasmFile))
			if err != nil {
				t.Fatal(err)
			}
			d, err := DescribeIn(context.Background(), testRuntime(t), wasm)
			if err != nil {
				t.Fatal(err)
			}
			if id.Wasm.Module != "" {
				d = &abi.Description{Tools: d.Plugins[id.Name]}
			}
			if *update {
				gen, err := Generate(committed, d)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(repo(src), manifest.FileName), gen, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			diffs, err := Compare(committed, d)
			if err != nil {
				t.Fatal(err)
			}
			if len(diffs) > 0 {
				t.Errorf("%s/manifest.json is out of date; run `go test ./host/pluginbuild -update`:\n\t%s", src, strings.Join(diffs, "\n\t"))
			}
		})
	}
}

// Every committed manifest decodes as a source manifest; input schemas
// compile; output schemas require nothing at their top level and admit the
// error shape, so that error results validate in strict clients.
func TestCommittedSchemas(t *testing.T) {
	errShape := mustJSON(t, `{"code":"NOT_FOUND","message":"no such file; list the folder first"}`)
	for _, src := range pluginSources(t) {
		data, err := ReadSource(repo(src))
		if err != nil {
			t.Fatal(err)
		}
		m, err := manifest.DecodeSource(data)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if m.Wasm.SHA256 != "" || m.Wasm.File != WasmFile {
			t.Errorf("%s: wasm must be {file: %s, sha256: \"\"} in a source manifest, got %+v", src, WasmFile, m.Wasm)
		}
		for _, tool := range m.Tools {
			if _, err := manifest.CompileSchema(tool.Name+".in", tool.InputSchema); err != nil {
				t.Errorf("%s: input schema: %v", tool.Name, err)
			}
			if len(tool.OutputSchema) == 0 {
				continue
			}
			var top struct {
				Required             []string `json:"required"`
				AdditionalProperties any      `json:"additionalProperties"`
			}
			json.Unmarshal(tool.OutputSchema, &top)
			if len(top.Required) > 0 || top.AdditionalProperties != nil {
				t.Errorf("%s: output schema must neither require nor forbid properties at its top level", tool.Name)
			}
			out, err := manifest.CompileSchema(tool.Name+".out", tool.OutputSchema)
			if err != nil {
				t.Errorf("%s: output schema: %v", tool.Name, err)
				continue
			}
			if err := out.Validate(errShape); err != nil {
				t.Errorf("%s: output schema rejects the error shape: %v", tool.Name, err)
			}
		}
	}
}

func mustJSON(t testing.TB, s string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}
