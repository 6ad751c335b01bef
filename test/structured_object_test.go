package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/wasmtest"
)

// A plugin's structured content that is not a JSON object (an array, a
// string, a number) went into juju's answer as it was: MCP's
// structuredContent is an object, and the clients' decoders (the
// TypeScript SDK's, the Python SDK's) refuse the whole message for
// anything else, so the model got a protocol error instead of the tool's
// answer. Now it fails as PLUGIN_FAILED, as a malformed result; an object
// still passes, and a null (a nil map) is no structured content.
func TestStructuredContentIsAnObject(t *testing.T) {
	home := newHome(t)
	answers := map[string]string{
		"test_array":  `{"content":[{"type":"text","text":"a"}],"structured":[1,2]}`,
		"test_string": `{"content":[{"type":"text","text":"a"}],"structured": "x"}`,
		"test_number": `{"content":[{"type":"text","text":"a"}],"structured":5}`,
		"test_object": `{"content":[{"type":"text","text":"a"}],"structured": {"n":5}}`,
		"test_null":   `{"content":[{"type":"text","text":"a"}],"structured":null}`,
	}
	for tool, answer := range answers {
		installAnswering(t, home, wasmtest.StartOptions{Tool: tool, Answer: []byte(answer)})
	}
	s := startHome(t, home, workspace(t, map[string]string{"a.txt": "a\n"}))
	for tool := range answers {
		res := s.call(tool, map[string]any{})
		switch tool {
		case "test_object":
			if res.IsError || res.StructuredContent == nil {
				t.Errorf("%s: %s, %v", tool, text(res), res.StructuredContent)
			}
			continue
		case "test_null": // as if there were none
			if res.IsError || res.StructuredContent != nil {
				t.Errorf("%s: %s, %v", tool, text(res), res.StructuredContent)
			}
			continue
		}
		if !res.IsError || !strings.HasPrefix(text(res), "PLUGIN_FAILED") {
			t.Errorf("%s: %s with structured content %v, want PLUGIN_FAILED", tool, text(res), res.StructuredContent)
		}
	}
}

// An installed plugin's structured content that does not fit the output
// schema its tool declares is PLUGIN_FAILED, naming where it does not fit:
// clients check it against the schema (the TypeScript SDK throws), so it
// would reach the model as a protocol error naming no one.
func TestStructuredContentFitsTheOutputSchema(t *testing.T) {
	home := newHome(t)
	output := map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer"}}, "required": []any{"n"}}
	answers := map[string]string{
		"test_fits":    `{"content":[{"type":"text","text":"a"}],"structured":{"n":5}}`,
		"test_wrong":   `{"content":[{"type":"text","text":"a"}],"structured":{"n":"five"}}`,
		"test_missing": `{"content":[{"type":"text","text":"a"}],"structured":{"m":5}}`,
	}
	for tool, answer := range answers {
		installAnswering(t, home, wasmtest.StartOptions{Tool: tool, Answer: []byte(answer), Output: output})
	}
	s := startHome(t, home, workspace(t, map[string]string{"a.txt": "a\n"}))
	for tool, where := range map[string]string{"test_fits": "", "test_wrong": `"/n"`, "test_missing": "its structured content does not fit"} {
		res := s.call(tool, map[string]any{})
		if where == "" {
			if res.IsError || res.StructuredContent == nil {
				t.Errorf("%s: %s, %v", tool, text(res), res.StructuredContent)
			}
			continue
		}
		if !res.IsError || !strings.HasPrefix(text(res), "PLUGIN_FAILED") || !strings.Contains(text(res), where) {
			t.Errorf("%s: %s with structured content %v, want PLUGIN_FAILED naming %s", tool, text(res), res.StructuredContent, where)
		}
	}
}

// installAnswering installs in home a test plugin of the one tool o.Tool,
// which answers o.Answer (wasmtest.StartPlugin).
func installAnswering(t *testing.T, home string, o wasmtest.StartOptions) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), o.Tool)
	os.MkdirAll(dir, 0o755)
	name := strings.ReplaceAll(o.Tool, "_", "-")
	os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(`{"abi": 2, "name": "`+name+`", "version": "0.0.0",
		"description": "Test plugin: answers a structured content; built only by tests.",
		"wasm": {"file": "plugin.wasm", "sha256": ""}, "capabilities": []}`), 0o644)
	wasmFile := filepath.Join(t.TempDir(), "plugin.wasm")
	os.WriteFile(wasmFile, wasmtest.StartPlugin(o), 0o644)
	cliOK(t, home, "plugins", "build", "--wasm", wasmFile, dir)
	if errs, code := cliWithin(t, 60*time.Second, home, "plugins", "install", dir, "--yes"); code != 0 {
		t.Fatalf("install %s: exit %d, %s", o.Tool, code, errs)
	}
}
