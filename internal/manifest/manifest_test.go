package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

const good = `{
  "abi": 1,
  "name": "demo",
  "version": "1.0.0",
  "description": "a demo",
  "wasm": {"file": "plugin.wasm", "sha256": "0000000000000000000000000000000000000000000000000000000000000000"},
  "capabilities": ["fs.read"],
  "tools": [{
    "name": "demo_tool",
    "description": "does a thing",
    "tier": "R",
    "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
    "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
    "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}
  }]
}`

func TestDecodeGood(t *testing.T) {
	m, err := Decode([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "demo" || len(m.Tools) != 1 || !m.CapabilitySet()["fs.read"] || m.Lazy {
		t.Fatalf("decoded %+v", m)
	}
	lazy, err := Decode([]byte(strings.Replace(good, `"abi": 1,`, `"abi": 1, "lazy": true,`, 1)))
	if err != nil || !lazy.Lazy {
		t.Fatalf("a lazy manifest: %+v, %v", lazy, err)
	}
	if _, err := DecodeEmbedded([]byte(good)); err != nil {
		t.Fatal(err)
	}
}

func TestDecodeRejects(t *testing.T) {
	cases := []struct {
		name, from, to, want string
	}{
		{"unknown field", `"abi": 1,`, `"abi": 1, "extra": true,`, "unknown field"},
		{"not UTF-8", `{"path": {"type": "string"}}`, "{\"path\": {\"type\": \"string\", \"description\": \"\xff\"}}", "not UTF-8"},
		{"wrong abi", `"abi": 1,`, `"abi": 3,`, "abi 3"},
		{"bad name", `"name": "demo"`, `"name": "Demo!"`, "name"},
		{"empty version", `"version": "1.0.0"`, `"version": " "`, "version"},
		{"path in wasm file", `"file": "plugin.wasm"`, `"file": "../x.wasm"`, "wasm.file"},
		{"short hash", `"sha256": "0000000000000000000000000000000000000000000000000000000000000000"`, `"sha256": "00"`, "sha256"},
		{"upper hash", `"sha256": "0000000000000000000000000000000000000000000000000000000000000000"`, `"sha256": "000000000000000000000000000000000000000000000000000000000000000A"`, "sha256"},
		{"unknown capability", `["fs.read"]`, `["fs.everything"]`, "unknown capability"},
		{"duplicate capability", `["fs.read"]`, `["fs.read","fs.read"]`, "twice"},
		{"bad tool name", `"name": "demo_tool"`, `"name": "Demo-Tool"`, "name must match"},
		{"bad tier", `"tier": "R"`, `"tier": "Z"`, "tier"},
		{"read tier without readOnly", `"readOnlyHint": true`, `"readOnlyHint": false`, "readOnlyHint"},
		{"input not object", `"inputSchema": {"type": "object",`, `"inputSchema": {"type": "array",`, "inputSchema"},
		{"input schema broken", `{"path": {"type": "string"}}`, `{"path": {"type": 7}}`, "inputSchema"},
		{"no description", `"description": "does a thing"`, `"description": ""`, "description"},
		{"long version", `"version": "1.0.0"`, `"version": "1.0.0-` + strings.Repeat("x", 60) + `"`, "version is 66 bytes"},
		{"long plugin description", `"description": "a demo"`, `"description": "` + strings.Repeat("d", 4097) + `"`, "description is 4097 bytes"},
		{"long tool description", `"description": "does a thing"`, `"description": "` + strings.Repeat("d", 4097) + `"`, "tool \"demo_tool\": description is 4097 bytes"},
		{"long tool title", `"description": "does a thing"`, `"description": "does a thing", "title": "` + strings.Repeat("t", 129) + `"`, "title is 129 bytes"},
		{"lazy not a boolean", `"abi": 1,`, `"abi": 1, "lazy": "yes",`, "lazy"},
		{"another plugin's module", `"file": "plugin.wasm"`, `"file": "plugin.wasm", "module": "core"`, "core plugins only"},
		{"negative limits", `"capabilities"`, `"limits": {"memoryMiB": -1}, "capabilities"`, "negative"},
		{"trailing data", `}]
}`, `}]
} {}`, "trailing"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(good, tc.from) {
				t.Fatalf("fixture lacks %q", tc.from)
			}
			_, err := Decode([]byte(strings.Replace(good, tc.from, tc.to, 1)))
			if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want an ErrInvalid mentioning %q, got %v", tc.want, err)
			}
		})
	}
}

// A plugin's discoverer globs are matched against every file of the
// workspace in host code, at each project_overview: their number, their
// length and the forms their brace groups expand to are bounded, at
// install and at every start, before any of them is matched.
func TestDiscovererGlobsBounded(t *testing.T) {
	withDiscoverers := func(ds []abi.DiscovererSpec) []byte {
		var m map[string]any
		json.Unmarshal([]byte(good), &m)
		m["discoverers"] = ds
		out, _ := json.Marshal(m)
		return out
	}
	many := func(n int, files ...string) []abi.DiscovererSpec {
		var ds []abi.DiscovererSpec
		for i := range n {
			ds = append(ds, abi.DiscovererSpec{Name: fmt.Sprintf("d%d", i), Files: files})
		}
		return ds
	}
	globs := func(n int, g string) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("%s%d", g, i))
		}
		return out
	}
	eight := "*.{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}" // 128 forms
	for _, c := range []struct {
		name string
		ds   []abi.DiscovererSpec
		want string // "" when the manifest is good
	}{
		{"forty brace groups", many(1, strings.Repeat("{,}", 40)+"x"), "forms"},
		{"65 discoverers", many(abi.MaxDiscoverers+1, "Makefile"), "discoverers, more than"},
		{"33 globs", many(1, globs(abi.MaxDiscovererGlobs+1, "f")...), "file globs, more than"},
		{"a glob too long", many(1, strings.Repeat("x", abi.MaxDiscovererGlob+1)), "longer than"},
		{"forms over the plugin's discoverers", many(9, eight), "forms in all"},
		{"at the bounds", append(many(abi.MaxDiscoverers-1, "Makefile"),
			abi.DiscovererSpec{Name: "last", Files: append(globs(abi.MaxDiscovererGlobs-1, "f"), strings.Repeat("x", abi.MaxDiscovererGlob))}), ""},
		{"1,024 forms in all", many(abi.MaxGlobForms/128, eight), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := withDiscoverers(c.ds)
			for name, decode := range map[string]func([]byte) (*Manifest, error){"Decode": Decode, "DecodeEmbedded": DecodeEmbedded, "DecodeSource": DecodeSource} {
				_, err := decode(data)
				switch {
				case c.want == "" && err != nil:
					t.Errorf("%s refused a manifest within the bounds: %v", name, err)
				case c.want != "" && (!errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want)):
					t.Errorf("%s: want an ErrInvalid mentioning %q, got %v", name, c.want, err)
				}
			}
		})
	}
}

func TestDuplicateToolRejected(t *testing.T) {
	i := strings.Index(good, `{
    "name": "demo_tool"`)
	j := strings.LastIndex(good, "}]")
	tool := good[i : j+1]
	dup := good[:j+1] + "," + tool + good[j+1:]
	if _, err := Decode([]byte(dup)); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("duplicate tool: %v", err)
	}
}

// wasm.module is accepted from juju's own build (a source or an embedded
// manifest) when it names another plugin, and never from an installed one.
func TestWasmModule(t *testing.T) {
	shared := strings.Replace(good, `"file": "plugin.wasm"`, `"file": "plugin.wasm", "module": "core"`, 1)
	m, err := DecodeEmbedded([]byte(shared))
	if err != nil || m.Wasm.Module != "core" {
		t.Fatalf("embedded: %+v, %v", m, err)
	}
	if _, err := DecodeSource([]byte(shared)); err != nil {
		t.Fatalf("source: %v", err)
	}
	if _, err := Decode([]byte(shared)); err == nil {
		t.Fatal("an installed plugin's manifest may not name another module")
	}
	for _, mod := range []string{"demo", "../core", "Core", "core/x"} {
		bad := strings.Replace(good, `"file": "plugin.wasm"`, `"file": "plugin.wasm", "module": "`+mod+`"`, 1)
		if _, err := DecodeEmbedded([]byte(bad)); err == nil || !strings.Contains(err.Error(), "wasm.module") {
			t.Errorf("module %q: %v", mod, err)
		}
	}
}

func TestSourceManifestNeedsNoHash(t *testing.T) {
	src := strings.Replace(good, `"0000000000000000000000000000000000000000000000000000000000000000"`, `""`, 1)
	if _, err := DecodeSource([]byte(src)); err != nil {
		t.Fatalf("source manifest: %v", err)
	}
	if _, err := Decode([]byte(src)); err == nil {
		t.Fatal("a complete manifest must carry the hash")
	}
	// An author who left out the wasm block reads what to write.
	nowasm := `{"abi": 2, "name": "p", "version": "1", "description": "d", "capabilities": []}`
	if _, err := DecodeSource([]byte(nowasm)); err == nil || !strings.Contains(err.Error(), `wasm.file is missing: name the module's file, "wasm": {"file": "plugin.wasm"}`) {
		t.Fatalf("a source manifest without wasm: %v", err)
	}
}

// FuzzDecode: any input is either a manifest that passes every rule or an
// ErrInvalid; never a panic, never a half-valid manifest.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"abi":1,"name":"x","version":"1","wasm":{"file":"a.wasm","sha256":""},"capabilities":[],"tools":[]}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"abi":1e400}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error not wrapping ErrInvalid: %v", err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("decoded manifest fails validation: %v", err)
		}
		for _, tool := range m.Tools {
			if _, err := CompileSchema("in", tool.InputSchema); err != nil {
				t.Fatalf("accepted an input schema that does not compile: %v", err)
			}
		}
	})
}

// DecodeEmbedded does not read the tools' schemas again (the build compiled
// them), but it checks everything else, and that each tool has an input
// schema at all.
func TestDecodeEmbeddedTrustsOnlyTheSchemas(t *testing.T) {
	broken := strings.Replace(good, `{"path": {"type": "string"}}`, `{"path": {"type": 7}}`, 1)
	if _, err := DecodeEmbedded([]byte(broken)); err != nil {
		t.Fatalf("an embedded manifest's schema was read again: %v", err)
	}
	if _, err := Decode([]byte(broken)); err == nil {
		t.Fatal("Decode accepted a schema that does not compile")
	}
	for name, bad := range map[string]string{
		"no input schema": strings.Replace(good, `"inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},`, ``, 1),
		"bad tier":        strings.Replace(good, `"tier": "R"`, `"tier": "Z"`, 1),
		"bad capability":  strings.Replace(good, `["fs.read"]`, `["fs.everything"]`, 1),
	} {
		if bad == good {
			t.Fatalf("%s: fixture unchanged", name)
		}
		if _, err := DecodeEmbedded([]byte(bad)); err == nil || !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: DecodeEmbedded accepted it (%v)", name, err)
		}
	}
}
