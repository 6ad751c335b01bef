package test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/jujutools/juju/internal/wasmtest"
)

// A plugin module of a hundred bytes whose counts lie: wazero allocates by
// a function's declared locals and the name section's counts while it
// decodes, before it reads what they count. One function of 200 million
// locals made `juju plugins build --wasm` take 5 GB and two minutes, and
// a name section naming 2^32-1 locals of a function ended build and
// install at once with Go's fatal out-of-memory error (exit 2, a stack
// dump). Build, install and load now refuse such a module before wazero
// sees it, saying why, and the session's other tools answer.
func TestDecodeBombsRefused(t *testing.T) {
	home := newHome(t)
	uleb := func(v uint32) []byte { return binary.AppendUvarint(nil, uint64(v)) }
	var sub []byte
	for _, p := range [][]byte{uleb(1), uleb(0), uleb(1<<32 - 1), uleb(0), wasmtest.Name("x")} {
		sub = append(sub, p...)
	}
	names := append(append(append(wasmtest.Name("name"), 2), uleb(uint32(len(sub)))...), sub...)
	bombs := map[string][]byte{
		"locals": wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "test_bomb", Locals: 60_000}),
		"names":  wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "test_bomb", Custom: names}),
	}
	good := wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "test_bomb"})
	dir := filepath.Join(t.TempDir(), "bomb")
	os.MkdirAll(dir, 0o755)
	m := map[string]any{"abi": 2, "name": "test-bomb", "version": "0.0.0",
		"description": "Test plugin bomb: counts its bytes cannot hold; built only by tests.",
		"wasm":        map[string]any{"file": "plugin.wasm", "sha256": ""}, "capabilities": []string{}}
	b, _ := json.MarshalIndent(m, "", "  ")
	os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644)
	wasmFile := filepath.Join(t.TempDir(), "plugin.wasm")
	for what, bomb := range bombs {
		os.WriteFile(wasmFile, bomb, 0o644)
		errs, code := cliWithin(t, 30*time.Second, home, "plugins", "build", "--wasm", wasmFile, dir)
		if code != 1 || !strings.Contains(errs, "more than") {
			t.Errorf("build --wasm of the %s bomb: exit %d, %.400s", what, code, errs)
		}
	}
	os.WriteFile(wasmFile, good, 0o644)
	cliOK(t, home, "plugins", "build", "--wasm", wasmFile, dir)
	cliOK(t, home, "plugins", "install", dir, "--yes")

	// The built folder with the module swapped and its pin updated, as an
	// author could hand-stamp it.
	bomb := bombs["names"]
	stampWasm(t, dir, bomb)
	errs, code := cliWithin(t, 30*time.Second, newHome(t), "plugins", "install", dir, "--yes")
	if code != 1 || !strings.Contains(errs, "plugin refused") || !strings.Contains(errs, "name section") {
		t.Errorf("install of the names bomb: exit %d, %.400s", code, errs)
	}

	// The installed plugin swapped by hand, its pins rewritten.
	swapInstalledWasm(t, home, "test-bomb", bomb)
	root := workspace(t, map[string]string{"a.txt": "still here\n"})
	s := startHome(t, home, root)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "test_bomb", map[string]any{}
	res, err := s.c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("test_bomb: %v", err)
	}
	if !res.IsError || !strings.HasPrefix(text(res), "PLUGIN_FAILED") {
		t.Fatalf("test_bomb: %s, want PLUGIN_FAILED", text(res))
	}
	if got := s.ok("read_file", map[string]any{"path": "a.txt"}); !strings.Contains(got, "still here") {
		t.Fatalf("read_file: %q", got)
	}
}
