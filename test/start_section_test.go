package test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/jujutools/juju/internal/installed"
	"github.com/jujutools/juju/internal/wasmtest"
)

// cliWithin is cli, failing the test when juju has not exited within d
// (it is then killed).
func cliWithin(t *testing.T, d time.Duration, home string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, jujuBin, args...)
	cmd.Env = append(os.Environ(), "JUJU_HOME="+home)
	cmd.WaitDelay = time.Second
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("juju %v did not end within %v", args, d)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return errb.String(), exit.ExitCode()
	}
	if err != nil {
		t.Fatalf("juju %v: %v", args, err)
	}
	return errb.String(), 0
}

// A plugin whose module has a start section that loops: wazero runs the
// start inside instantiation, where no deadline stopped it, so `plugins
// build --wasm` and `plugins install` hung (install holding the data
// lock), and a session with such a plugin installed spun on a core and
// held each of its calls for ever. Build and install now refuse the
// module at once, saying why; placed in the installed folder by hand,
// pins and all, it is refused at load, and its calls fail at once while
// the other tools answer.
func TestStartSectionRefused(t *testing.T) {
	home := newHome(t)
	good := wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "test_start_ok"})
	spins := wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "test_start_ok", Start: wasmtest.StartSection})
	dir := filepath.Join(t.TempDir(), "start")
	os.MkdirAll(dir, 0o755)
	m := map[string]any{"abi": 2, "name": "test-start", "version": "0.0.0",
		"description": "Test plugin start: a start section that loops; built only by tests.",
		"wasm":        map[string]any{"file": "plugin.wasm", "sha256": ""}, "capabilities": []string{}}
	b, _ := json.MarshalIndent(m, "", "  ")
	os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644)
	wasmFile := filepath.Join(t.TempDir(), "plugin.wasm")

	os.WriteFile(wasmFile, spins, 0o644)
	errs, code := cliWithin(t, 20*time.Second, home, "plugins", "build", "--wasm", wasmFile, dir)
	if code != 1 || !strings.Contains(errs, "start section") || !strings.Contains(errs, "_initialize") {
		t.Errorf("build --wasm of a module with a start section: exit %d, %s", code, errs)
	}
	os.WriteFile(wasmFile, good, 0o644)
	cliOK(t, home, "plugins", "build", "--wasm", wasmFile, dir)
	cliOK(t, home, "plugins", "install", dir, "--yes")

	// The built folder with the module swapped and its pin updated, as an
	// author could hand-stamp it.
	stampWasm(t, dir, spins)
	errs, code = cliWithin(t, 20*time.Second, newHome(t), "plugins", "install", dir, "--yes")
	if code != 1 || !strings.Contains(errs, "plugin refused") || !strings.Contains(errs, "start section") {
		t.Errorf("install of a module with a start section: exit %d, %s", code, errs)
	}

	// The installed plugin swapped by hand, its pins rewritten.
	swapInstalledWasm(t, home, "test-start", spins)
	root := workspace(t, map[string]string{"a.txt": "still here\n"})
	s := startHome(t, home, root)
	for range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "test_start_ok", map[string]any{}
		res, err := s.c.CallTool(ctx, req)
		cancel()
		if err != nil {
			t.Fatalf("test_start_ok: %v", err)
		}
		if !res.IsError || !strings.HasPrefix(text(res), "PLUGIN_FAILED") {
			t.Fatalf("test_start_ok: %s, want PLUGIN_FAILED", text(res))
		}
		if got := s.ok("read_file", map[string]any{"path": "a.txt"}); !strings.Contains(got, "still here") {
			t.Fatalf("read_file: %q", got)
		}
	}
	if log := s.stderr(); !strings.Contains(log, "start section") {
		t.Errorf("the owner's log does not say why the plugin was refused:\n%s", log)
	}
}

// stampWasm puts wasm in the plugin folder dir (built or installed) and
// writes its sha256 into the manifest, as an author could hand-stamp it;
// it returns that pin.
func stampWasm(t *testing.T, dir string, wasm []byte) string {
	t.Helper()
	sum := sha256.Sum256(wasm)
	pin := hex.EncodeToString(sum[:])
	if err := os.WriteFile(filepath.Join(dir, "plugin.wasm"), wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	editJSON(t, filepath.Join(dir, "manifest.json"), func(m map[string]any) { m["wasm"].(map[string]any)["sha256"] = pin })
	return pin
}

// swapInstalledWasm replaces the installed plugin name's module in home by
// wasm, its pins rewritten (manifest and grants), so that only the check
// juju makes when it loads the module can refuse it.
func swapInstalledWasm(t *testing.T, home, name string, wasm []byte) {
	t.Helper()
	inst := filepath.Join(home, "data", "plugins", name)
	pin := stampWasm(t, inst, wasm)
	mdata, err := os.ReadFile(filepath.Join(inst, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	editJSON(t, filepath.Join(inst, "grants.json"), func(g map[string]any) {
		g["sha256"], g["manifestSha256"] = pin, installed.Hash(mdata)
	})
}
