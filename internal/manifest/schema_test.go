package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A schema compiles from itself alone: a $ref, $dynamicRef or $schema
// naming a file (absolute, relative, a FIFO nobody writes, /dev/stdin) is
// refused without being opened, while references within the document and
// the standard metaschemas still work.
func TestCompileSchemaLoadsNothingOutside(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	file := filepath.Join(dir, "string.json")
	if err := os.WriteFile(file, []byte(`{"type":"string"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	// Opening a FIFO with no writer blocks: a loader that tried would hang.
	fifo := filepath.Join(dir, "fifo.json")
	hasFIFO := mkfifo(fifo) == nil
	prop := func(ref string) string {
		return `{"type":"object","properties":{"text":{"$ref":"` + ref + `"}}}`
	}
	for name, schema := range map[string]string{
		"absolute file":  prop("file://" + file),
		"relative file":  prop("string.json"),
		"stdin":          prop("file:///dev/stdin"),
		"fifo":           prop("file://" + fifo),
		"https":          prop("https://example.com/s.json"),
		"dynamicRef":     `{"type":"object","properties":{"text":{"$dynamicRef":"file://` + file + `#x"}}}`,
		"schema keyword": `{"$schema":"file://` + file + `","type":"object","properties":{}}`,
		"in an $id":      `{"$id":"file://` + dir + `/","type":"object","properties":{"text":{"$ref":"string.json"}}}`,
	} {
		if name == "fifo" && !hasFIFO {
			continue
		}
		done := make(chan error, 1)
		go func() {
			_, err := CompileSchema("t", []byte(schema))
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrExternalRef) {
				t.Errorf("%s: compiled (or failed otherwise): %v", name, err)
			} else if !strings.Contains(err.Error(), `may refer only within itself`) {
				t.Errorf("%s: the error does not say what to do: %v", name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: CompileSchema opened a file and waits on it", name)
		}
	}

	for name, schema := range map[string]string{
		"$defs":      `{"$defs":{"s":{"type":"string"}},"type":"object","properties":{"text":{"$ref":"#/$defs/s"}}}`,
		"metaschema": `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"s":{"type":"string"}},"type":"object","properties":{"text":{"$ref":"#/definitions/s"}}}`,
		"anchor":     `{"$defs":{"s":{"$anchor":"str","type":"string"}},"type":"object","properties":{"text":{"$ref":"#str"}}}`,
	} {
		s, err := CompileSchema("t", []byte(schema))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if s.Validate(map[string]any{"text": 7}) == nil {
			t.Errorf("%s: the in-document reference was not followed", name)
		}
	}
}

// A manifest whose tool schema refers outside itself is invalid.
func TestDecodeRefusesExternalRef(t *testing.T) {
	bad := strings.Replace(good, `{"path": {"type": "string"}}`, `{"path": {"$ref": "file:///dev/stdin"}}`, 1)
	if bad == good {
		t.Fatal("fixture unchanged")
	}
	_, err := Decode([]byte(bad))
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `refers outside itself: it names "file:///dev/stdin"`) {
		t.Fatalf("Decode: %v", err)
	}
}

// Every JSON Schema juju compiles goes through CompileSchema, whose loader
// refuses every URL: no other compiler is made, and the MCP library's own
// validation (whose compiler loads files) stays off.
func TestOneSchemaCompiler(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	self := filepath.Join(root, "internal", "manifest", "schema.go")
	found := false
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "node_modules", "bin":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		src := string(b)
		for _, call := range []string{"NewCompiler(", "WithInputSchemaValidation(", "WithOutputSchemaValidation("} {
			if !strings.Contains(src, call) {
				continue
			}
			if path == self && call == "NewCompiler(" {
				found = true
				continue
			}
			t.Errorf("%s calls %s: compile JSON Schemas with manifest.CompileSchema, whose loader reads no file", path, call)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !found {
		t.Fatal("the scan did not find CompileSchema's own compiler: it looks in the wrong place")
	}
}

// boundsManifest is a manifest of tools tools, each with an input schema
// of props string arguments, given pattern when it is not empty (N in it
// numbering the arguments, so that each has its own), and a
// description full of braces (inside a string, they are no objects).
func boundsManifest(tools, props int, pattern string) []byte {
	var ts []map[string]any
	for j := range tools {
		p := map[string]any{}
		for i := range props {
			arg := map[string]any{"type": "string", "description": strings.Repeat("{", 100)}
			if pattern != "" {
				arg["pattern"] = strings.ReplaceAll(pattern, "N", fmt.Sprint(j*props+i))
			}
			p[fmt.Sprintf("a%d", i)] = arg
		}
		ts = append(ts, map[string]any{"name": fmt.Sprintf("t%d", j), "description": "d", "tier": "X",
			"inputSchema": map[string]any{"type": "object", "properties": p}})
	}
	b, _ := json.Marshal(map[string]any{"abi": 2, "name": "demo", "version": "1", "description": "d",
		"wasm":         map[string]any{"file": "plugin.wasm", "sha256": strings.Repeat("0", 64)},
		"capabilities": []string{}, "tools": ts})
	return b
}

// What compiling a manifest's schemas costs is bounded, since juju
// compiles every installed plugin's schemas at every start: a 0.9 MB
// manifest of one tool of 30,000 arguments took each start 28 s, and a
// 1 MiB one of "\pL{1000}" patterns 45 s and 1.3 GB. The objects and the
// patterns of all the tools' schemas count together, and are counted
// before they compile.
func TestSchemasAreBounded(t *testing.T) {
	for _, c := range []struct {
		name           string
		tools, props   int
		pattern, wants string
	}{
		{"many arguments in one tool", 1, 2048, "", "JSON objects"},
		{"few arguments in many tools", 512, 3, "", "JSON objects"},
		{"large patterns", 1, 20, `\pL{1000}`, "regular expressions"},
		{"patterns in many tools", 100, 2, `^N[a-z0-9_]{1,64}$`, "regular expressions"},
		{"within the bounds", 10, 30, `^[a-z0-9_]{1,64}$`, ""},
		{"different patterns within the bounds", 50, 2, `^N[a-z0-9_]{1,64}$`, ""},
	} {
		_, err := Decode(boundsManifest(c.tools, c.props, c.pattern))
		switch {
		case c.wants == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.wants != "" && (err == nil || !strings.Contains(err.Error(), errSchemaBudget.Error()) || !strings.Contains(err.Error(), c.wants)):
			t.Errorf("%s: want %q, got %v", c.name, c.wants, err)
		}
	}
	// A schema compiled on its own (a tool's first call) has the bounds too.
	props := map[string]any{}
	for i := range 2048 {
		props[fmt.Sprintf("a%d", i)] = map[string]any{"type": "string"}
	}
	raw, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
	if _, err := CompileSchema("x", raw); !errors.Is(err, errSchemaBudget) {
		t.Errorf("CompileSchema of %d objects: %v", len(props)+1, err)
	}
}

// A tool's input schema whose x-mcp-header annotation mcp-go would refuse
// (on an object, empty, twice) is invalid; one on a string is not.
func TestDecodeRefusesBadHeaderAnnotation(t *testing.T) {
	for name, props := range map[string]string{
		"on an object": `{"path": {"type": "object", "x-mcp-header": "X-Path"}}`,
		"empty":        `{"path": {"type": "string", "x-mcp-header": ""}}`,
		"twice":        `{"path": {"type": "string", "x-mcp-header": "X-P"}, "q": {"type": "string", "x-mcp-header": "x-p"}}`,
		"escaped key":  `{"path": {"type": "object", "x-mcp\u002dheader": "X-Path"}}`,
	} {
		bad := strings.Replace(good, `{"path": {"type": "string"}}`, props, 1)
		if bad == good {
			t.Fatal("the manifest's properties moved")
		}
		if _, err := Decode([]byte(bad)); err == nil || !strings.Contains(err.Error(), "x-mcp-header") {
			t.Errorf("%s: %v", name, err)
		}
	}
	ok := strings.Replace(good, `{"path": {"type": "string"}}`, `{"path": {"type": "string", "x-mcp-header": "X-Path"}}`, 1)
	if _, err := Decode([]byte(ok)); err != nil {
		t.Errorf("a string's annotation: %v", err)
	}
}

// A tool's schemas are JSON Schema 2020-12, MCP's dialect: a $schema
// naming another draft anywhere in them refuses the manifest. Clients send
// every tool's input schema to the model's API with every request, and
// Anthropic's refuses the whole request for one schema of draft-07
// (claude-code#586: every request of the session fails, juju's core tools
// and other servers' included); the TypeScript SDK's client refuses to
// call a tool whose output schema declares draft-07.
func TestDecodeRefusesOtherSchemaDialects(t *testing.T) {
	input := `{"type": "object", "properties": {"path": {"type": "string"}}}`
	output := `{"type": "object", "properties": {"ok": {"type": "boolean"}}}`
	with := func(in, out string) string {
		s := strings.Replace(good, input, in, 1)
		return strings.Replace(s, output, out, 1)
	}
	for name, m := range map[string]string{
		"draft-07 input":  with(`{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"path": {"type": "string"}}}`, output),
		"draft-04 output": with(input, `{"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {"ok": {"type": "number", "maximum": 1, "exclusiveMaximum": true}}}`),
		"2019-09":         with(`{"$schema": "https://json-schema.org/draft/2019-09/schema", "type": "object", "properties": {"path": {"type": "string"}}}`, output),
		"latest alias":    with(`{"$schema": "https://json-schema.org/schema", "type": "object", "properties": {"path": {"type": "string"}}}`, output),
		"embedded $id":    with(`{"type": "object", "properties": {"path": {"$id": "https://juju.invalid/p", "$schema": "http://json-schema.org/draft-04/schema#", "type": "string"}}}`, output),
		"in a subschema":  with(`{"type": "object", "properties": {"path": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"}}}`, output),
		"own metaschema":  with(`{"$schema": "https://juju.invalid/schema/schema.json#/$defs/m", "$defs": {"m": {}}, "type": "object", "properties": {"path": {"type": "string"}}}`, output),
	} {
		if _, err := Decode([]byte(m)); err == nil || !strings.Contains(err.Error(), "JSON Schema 2020-12") {
			t.Errorf("%s: %v", name, err)
		}
	}
	for name, m := range map[string]string{
		"none":                good,
		"2020-12":             with(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"path": {"type": "string"}}}`, output),
		"2020-12 #":           with(input, `{"$schema": "https://json-schema.org/draft/2020-12/schema#", "type": "object", "properties": {"ok": {"type": "boolean"}}}`),
		"a text $schema":      with(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "description": "$schema", "type": "object", "properties": {"path": {"type": "string", "enum": ["$schema", "x"]}}}`, output),
		"an argument $schema": with(`{"type": "object", "properties": {"opts": {"type": "object", "properties": {"$schema": {"type": "string"}}, "required": ["$schema"]}}}`, output),
	} {
		if _, err := Decode([]byte(m)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A tool's input schema has no oneOf, anyOf or allOf at its top: clients
// send it to the model's API, and Anthropic's refuses every request
// holding one (claude-code#5319), so one such tool of one plugin failed
// every request of the session. Below the top they stay.
func TestDecodeRefusesTopLevelCombinators(t *testing.T) {
	input := `{"type": "object", "properties": {"path": {"type": "string"}}}`
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		m := strings.Replace(good, input, `{"type": "object", "properties": {"path": {"type": "string"}, "glob": {"type": "string"}}, "`+k+`": [{"required": ["path"]}, {"required": ["glob"]}]}`, 1)
		if _, err := Decode([]byte(m)); err == nil || !strings.Contains(err.Error(), k+" at its top") {
			t.Errorf("%s: %v", k, err)
		}
	}
	nested := strings.Replace(good, input, `{"type": "object", "properties": {"path": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}`, 1)
	if _, err := Decode([]byte(nested)); err != nil {
		t.Errorf("anyOf below the top: %v", err)
	}
	output := strings.Replace(good, `"outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}`, `"outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}, "anyOf": [{"required": ["ok"]}]}`, 1)
	if _, err := Decode([]byte(output)); err != nil {
		t.Errorf("anyOf at an output schema's top (no model's API reads it): %v", err)
	}
}

// A tool's arguments are named as a model's API takes them,
// ^[a-zA-Z0-9_.-]{1,64}$: Anthropic's refuses every request holding a
// tool whose input schema's properties are named otherwise (a bracket, a
// space, a dollar, a letter outside ASCII), so one such argument of one
// plugin failed every request of the session. Below the top level, where
// the API does not look, names stay free.
func TestDecodeRefusesArgumentNamesAModelsAPIRefuses(t *testing.T) {
	input := `{"type": "object", "properties": {"path": {"type": "string"}}}`
	for _, name := range []string{"filter[id]", "two words", "$schema", "pаth", "a\u0000b", "", strings.Repeat("a", 65)} {
		b, _ := json.Marshal(name)
		m := strings.Replace(good, input, `{"type": "object", "properties": {`+string(b)+`: {"type": "string"}}}`, 1)
		if _, err := Decode([]byte(m)); err == nil || !strings.Contains(err.Error(), "^[a-zA-Z0-9_.-]{1,64}$") {
			t.Errorf("%q: %v", name, err)
		}
	}
	for _, name := range []string{"path", "old_string", "filter.id", "a-b", strings.Repeat("a", 64)} {
		m := strings.Replace(good, input, `{"type": "object", "properties": {"`+name+`": {"type": "string"}, "opts": {"type": "object", "properties": {"filter[id]": {"type": "string"}}}}}`, 1)
		if _, err := Decode([]byte(m)); err != nil {
			t.Errorf("%q: %v", name, err)
		}
	}
}
