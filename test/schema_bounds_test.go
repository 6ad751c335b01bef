package test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/installed"
)

// manyArgsFolder is a plugin folder whose one tool has n arguments.
func manyArgsFolder(t *testing.T, n int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "test-args")
	os.MkdirAll(dir, 0o755)
	wasm := []byte("\x00asm\x01\x00\x00\x00")
	os.WriteFile(filepath.Join(dir, "plugin.wasm"), wasm, 0o644)
	props := map[string]any{}
	for i := range n {
		props[fmt.Sprintf("a%d", i)] = map[string]any{"type": "string"}
	}
	m, _ := json.Marshal(map[string]any{"abi": 2, "name": "test-args", "version": "1", "description": "d",
		"wasm": map[string]any{"file": "plugin.wasm", "sha256": installed.Hash(wasm)}, "capabilities": []string{},
		"tools": []any{map[string]any{"name": "test_args", "description": "d", "tier": "X",
			"inputSchema": map[string]any{"type": "object", "properties": props}}}})
	os.WriteFile(filepath.Join(dir, "manifest.json"), m, 0o644)
	return dir
}

// juju compiles every installed plugin's schemas at every start, and the
// schema compiler is superlinear in an object's members: a plugin granted
// nothing, whose one tool had 30,000 arguments (0.9 MB of manifest), made
// every juju start, juju plugins list and juju tools take 28 s. Its
// schemas are now refused past 2,048 JSON objects, at install and at
// start, before any of them compiles.
func TestHugeSchemasRefused(t *testing.T) {
	home := newHome(t)
	dir := manyArgsFolder(t, 3000)
	_, errs, code := cli(t, home, nil, "plugins", "install", dir, "--yes")
	if code == 0 || !strings.Contains(errs, "more than 2048 JSON objects") {
		t.Fatalf("install of a tool of 3,000 arguments: exit %d\n%s", code, errs)
	}

	// The same folder put in place by hand (an older juju installed it).
	dst := filepath.Join(home, "data", "plugins", "test-args")
	os.MkdirAll(filepath.Dir(dst), 0o700)
	if err := os.Rename(dir, dst); err != nil {
		t.Fatal(err)
	}
	mdata, _ := os.ReadFile(filepath.Join(dst, "manifest.json"))
	var pin struct{ Wasm struct{ SHA256 string } }
	json.Unmarshal(mdata, &pin)
	if err := installed.WriteGrants(dst, installed.Grants{SHA256: pin.Wasm.SHA256, ManifestSHA256: installed.Hash(mdata)}); err != nil {
		t.Fatal(err)
	}
	if p := findListed(t, home, "test-args"); !strings.Contains(p.Error, "more than 2048 JSON objects") {
		t.Fatalf("plugins list does not refuse the plugin: %+v", p)
	}
}
