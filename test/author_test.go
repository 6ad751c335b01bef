package test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/installed"
)

// buildRaw builds plugins/testplugins/raw, a plugin written against the
// raw Extism ABI without juju's SDK, with a plain go build (as an author in
// another language builds with their own toolchain), with the build tags
// given, and returns the wasm's path.
func buildRaw(t *testing.T, tags string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "plugin.wasm")
	cmd := exec.Command("go", "build", "-tags", tags, "-buildmode=c-shared", "-o", out, "./testplugins/raw")
	cmd.Dir = filepath.Join(repoRoot, "plugins")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0", "GOWORK=off")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", tags, err, b)
	}
	return out
}

// authorFolder is the folder an author starts from: manifest.json with the
// plugin's identity and capabilities only, no tools and no sha256.
func authorFolder(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "plugins", "testplugins", "raw", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(data, &m)
	delete(m, "tools")
	dir := filepath.Join(t.TempDir(), "raw")
	os.MkdirAll(dir, 0o755)
	b, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// editJSON rewrites a manifest through fn.
func editJSON(t *testing.T, path string, fn func(m map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	fn(m)
	b, _ := json.MarshalIndent(m, "", "  ")
	os.WriteFile(path, b, 0o644)
}

// copyFolder copies a plugin folder's manifest and wasm.
func copyFolder(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	os.MkdirAll(dst, 0o755)
	for _, f := range []string{"manifest.json", "plugin.wasm"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dst, f), b, 0o644)
	}
	return dst
}

// A plugin not built by juju's SDK, tried as its new author would: the
// manifest is written from the prebuilt wasm's juju_describe (juju plugins
// build --wasm), every mistake on the way is named (an import juju does not
// provide, no juju_describe, an unbuilt manifest, a wasm rebuilt without
// its manifest, a stale schema), and the plugin then serves its tools, its
// own error message reaching juju's log.
func TestPrebuiltWasmPlugin(t *testing.T) {
	home := newHome(t)
	good, abort, nodesc := buildRaw(t, ""), buildRaw(t, "rawabort"), buildRaw(t, "rawnodescribe")
	dir := authorFolder(t)
	os.WriteFile(filepath.Join(dir, "plugin.wasm"), must(os.ReadFile(good)), 0o644)

	// The manifest as the author wrote it is not installable yet; the
	// refusal says how to finish it, for a wasm built another way too.
	_, errs, code := cli(t, home, nil, "plugins", "install", dir, "--yes")
	if code != 1 || !strings.Contains(errs, "juju plugins build --wasm FILE DIR") {
		t.Fatalf("install of an unbuilt manifest: %d %s", code, errs)
	}
	// A module juju cannot link or ask: the import and the export are named.
	_, errs, code = cli(t, home, nil, "plugins", "build", "--wasm", abort, dir)
	if code != 1 || !strings.Contains(errs, "it imports env.abort, which juju does not provide") {
		t.Fatalf("build --wasm of a module importing env.abort: %d %s", code, errs)
	}
	_, errs, code = cli(t, home, nil, "plugins", "build", "--wasm", nodesc, dir)
	if code != 1 || !strings.Contains(errs, "it exports no juju_describe function") {
		t.Fatalf("build --wasm of a module without juju_describe: %d %s", code, errs)
	}

	// The manifest written from the wasm's own description.
	var built struct {
		Name   string   `json:"name"`
		SHA256 string   `json:"sha256"`
		Tools  []string `json:"tools"`
	}
	cliJSON(t, home, &built, "plugins", "build", "--wasm", good, dir)
	if built.Name != "test-raw" || len(built.SHA256) != 64 || strings.Join(built.Tools, ",") != "test_raw_echo,test_raw_fail" {
		t.Fatalf("build --wasm: %+v", built)
	}
	if out := cliOK(t, home, "plugins", "build", "--wasm", good, dir); !strings.Contains(out, ": 2 tools, 0 discoverers\n") {
		t.Fatalf("build --wasm says: %s", out)
	}

	// Mistakes of a hand-stamped manifest: a wasm rebuilt without building
	// the manifest again, a schema left stale, an unlinkable import.
	rebuilt := copyFolder(t, dir)
	os.WriteFile(filepath.Join(rebuilt, "plugin.wasm"), must(os.ReadFile(nodesc)), 0o644)
	_, errs, code = cli(t, home, nil, "plugins", "install", rebuilt, "--yes")
	if code != 1 || !strings.Contains(errs, "sha256 mismatch") || !strings.Contains(errs, "juju plugins build DIR") {
		t.Errorf("install of a wasm rebuilt without its manifest: %d %s", code, errs)
	}
	stale := copyFolder(t, dir)
	editJSON(t, filepath.Join(stale, "manifest.json"), func(m map[string]any) {
		in := m["tools"].([]any)[0].(map[string]any)["inputSchema"].(map[string]any)
		in["properties"].(map[string]any)["count"] = map[string]any{"type": "integer"}
	})
	_, errs, code = cli(t, home, nil, "plugins", "install", stale, "--yes")
	if code != 1 || !strings.Contains(errs, "tool test_raw_echo: inputSchema differs") || !strings.Contains(errs, "juju plugins build") {
		t.Errorf("install of a stale input schema: %d %s", code, errs)
	}
	stamped := copyFolder(t, dir)
	abortWasm := must(os.ReadFile(abort))
	os.WriteFile(filepath.Join(stamped, "plugin.wasm"), abortWasm, 0o644)
	editJSON(t, filepath.Join(stamped, "manifest.json"), func(m map[string]any) {
		m["wasm"].(map[string]any)["sha256"] = installed.Hash(abortWasm)
	})
	_, errs, code = cli(t, home, nil, "plugins", "install", stamped, "--yes")
	if code != 1 || !strings.Contains(errs, "env.abort") || strings.Contains(errs, "try again") {
		t.Errorf("install of a module importing env.abort: %d %s", code, errs)
	}

	// Installed, it serves; its own error message reaches juju's log.
	cliOK(t, home, "plugins", "install", dir, "--yes")
	if p := findListed(t, home, "test-raw"); p.State != "compiled (cache)" {
		t.Errorf("list right after install: state %q, want compiled (cache)", p.State)
	}
	if out := cliOK(t, home, "plugins", "info", "test-raw"); !strings.Contains(out, "compiled (cache)") {
		t.Errorf("info right after install:\n%s", out)
	}
	logFile := filepath.Join(t.TempDir(), "juju.log")
	s := startHome(t, home, workspace(t, nil), "--log-file", logFile)
	if got := s.ok("test_raw_echo", map[string]any{"text": "hi"}); got != "raw: hi" {
		t.Errorf("test_raw_echo: %q", got)
	}
	// A plugin that sets its output and exits with 0 has answered; the
	// closed module is not given another call.
	if got := s.ok("test_raw_echo", map[string]any{"text": "exit"}); got != "raw: exit" {
		t.Errorf("test_raw_echo that exits: %q", got)
	}
	for i := range 3 {
		if got := s.ok("test_raw_echo", map[string]any{"text": "after"}); got != "raw: after" {
			t.Errorf("test_raw_echo call %d after an exit: %q", i+1, got)
		}
	}
	msg := s.fail("test_raw_fail", map[string]any{"text": "xyz"}, "PLUGIN_FAILED")
	if !strings.Contains(msg, `it reported an error: "the raw plugin failed on purpose: xyz"`) {
		t.Errorf("test_raw_fail: %s", msg)
	}
	if log := string(must(os.ReadFile(logFile))); !strings.Contains(log, "the raw plugin failed on purpose: xyz") || !strings.Contains(log, "raw plugin echoes hi") {
		t.Errorf("the plugin's own messages are not in the log:\n%s", log)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// juju plugins build warns of a host function the wasm imports whose
// capability the manifest does not ask for: every call of it would be
// refused at run time, and no grant could help (grant refuses what the
// manifest does not ask for). nogrant reads a file and asks for nothing.
// (A plugin that asks for what it imports gets no warning:
// TestUnaskedCapabilities.)
func TestBuildWarnsOfUnaskedCapability(t *testing.T) {
	home := newHome(t)
	nogrant := pluginCopy(t, "nogrant")
	wasm := filepath.Join(nogrant, "plugin.wasm")
	_, errs, code := cli(t, home, nil, "plugins", "build", "--wasm", wasm, nogrant, "-o", filepath.Join(t.TempDir(), "out"))
	if code != 0 || !strings.Contains(errs, `warning: the wasm imports juju_fs_read, which needs the capability fs.read, and manifest.json does not ask for it`) ||
		!strings.Contains(errs, `add "fs.read" to "capabilities" in manifest.json`) {
		t.Errorf("build of nogrant: exit %d\n%s", code, errs)
	}
	var built struct {
		Unasked []struct{ Function, Capability string } `json:"unasked"`
	}
	cliJSON(t, home, &built, "plugins", "build", "--wasm", wasm, nogrant, "-o", filepath.Join(t.TempDir(), "out"))
	if len(built.Unasked) != 1 || built.Unasked[0].Function != "juju_fs_read" || built.Unasked[0].Capability != "fs.read" {
		t.Errorf("build --json of nogrant: unasked %+v", built.Unasked)
	}
}
