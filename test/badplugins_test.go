package test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jujutools/juju/internal/installed"
	"github.com/jujutools/juju/internal/wasmtest"

	"github.com/jujutools/juju/host/pluginbuild"
)

// installForTest copies a built plugin into home's data directory with the
// given grants, the way `juju plugins install` lays it out.
func installForTest(t *testing.T, home, src string, grants []string) {
	t.Helper()
	built := pluginbuild.ForTest(t, filepath.Join(repoRoot, src))
	data, err := os.ReadFile(filepath.Join(built, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Name string }
	json.Unmarshal(data, &m)
	dst := filepath.Join(home, "data", "plugins", m.Name)
	if err := os.MkdirAll(dst, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"manifest.json", "plugin.wasm"} {
		b, err := os.ReadFile(filepath.Join(built, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	mdata, err := os.ReadFile(filepath.Join(dst, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pin struct{ Wasm struct{ SHA256 string } }
	json.Unmarshal(mdata, &pin)
	g, _ := json.Marshal(map[string]any{"granted": grants, "sha256": pin.Wasm.SHA256, "manifestSha256": installed.Hash(mdata)})
	if err := os.WriteFile(filepath.Join(dst, "grants.json"), g, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Deliberately bad plugins fail with their tool error while every other
// call keeps working, and the host lives on.
func TestBadPluginsFailAlone(t *testing.T) {
	home := t.TempDir()
	for _, p := range []string{"trap", "loop", "oom", "nogrant", "garbage", "echo"} {
		installForTest(t, home, "plugins/testplugins/"+p, nil)
	}
	root := workspace(t, map[string]string{"a.txt": "still here\n"})
	s := startHome(t, home, root)

	cases := []struct{ tool, code, says string }{
		{"test_trap", "PLUGIN_FAILED", ""},
		{"test_loop", "PLUGIN_FAILED", ""},
		{"test_oom", "PLUGIN_FAILED", ""},
		// nogrant's manifest asks for nothing: a grant cannot help, and the
		// answer does not send the owner to juju plugins grant.
		{"test_nogrant", "CAPABILITY_DENIED", "its manifest does not ask for \"fs.read\", so no grant can give it"},
		{"test_garbage", "INVALID_ARGUMENT", ""},
	}
	var wg sync.WaitGroup
	for _, tc := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := s.callErr(tc.tool, map[string]any{})
			if err != nil {
				t.Errorf("%s: protocol error %v", tc.tool, err)
				return
			}
			if !res.IsError || !strings.HasPrefix(text(res), tc.code) || !strings.Contains(text(res), tc.says) {
				t.Errorf("%s: want %s (%s), got %s", tc.tool, tc.code, tc.says, text(res))
			}
		}()
	}
	// Meanwhile, and after, the core tools and the healthy plugin answer.
	for i := 0; i < 5; i++ {
		if got := s.ok("read_file", map[string]any{"path": "a.txt"}); !strings.Contains(got, "still here") {
			t.Fatalf("read_file during bad calls: %q", got)
		}
	}
	wg.Wait()
	if got := s.ok("test_echo", map[string]any{"text": "pong"}); !strings.Contains(got, "pong") {
		t.Fatalf("echo after bad calls: %q", got)
	}
	// The denial is on the owner's log, naming the plugin and the capability.
	if log := s.stderr(); !strings.Contains(log, "capability denied") || !strings.Contains(log, "test-nogrant") {
		t.Errorf("CAPABILITY_DENIED not logged; stderr:\n%s", log)
	}
	// A trapped plugin's next call gets a fresh instance, and fails the same way.
	if res := s.call("test_trap", map[string]any{}); !res.IsError {
		t.Fatal("trap must keep failing")
	}
	s.ok("read_file", map[string]any{"path": "a.txt"})
}

// A plugin cannot reach the world around juju's host functions: no WASI
// file system, no Extism HTTP, no environment.
func TestPluginCannotEscape(t *testing.T) {
	home := t.TempDir()
	installForTest(t, home, "plugins/testplugins/escape", nil)
	root := workspace(t, map[string]string{"a.txt": "inside\n"})
	t.Setenv("JUJU_ESCAPE_CANARY", "canary-value-1234")
	s := startHome(t, home, root)

	got := s.ok("test_escape", map[string]any{"via": "fs", "target": "/etc/passwd"})
	if strings.Contains(got, "root:") || strings.Contains(got, "listed") {
		t.Fatalf("the plugin reached the file system: %s", got)
	}
	if !strings.Contains(got, "read failed") {
		t.Fatalf("unexpected answer: %s", got)
	}
	got = s.ok("test_escape", map[string]any{"via": "fs", "target": filepath.Join(root, "a.txt")})
	if strings.Contains(got, "inside") {
		t.Fatalf("the plugin read the workspace without a host function: %s", got)
	}
	if got := s.ok("test_escape", map[string]any{"via": "env"}); strings.Contains(got, "canary-value") || strings.Contains(got, "PATH=") {
		t.Fatalf("the plugin sees juju's environment: %s", got)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the plugin reached the network: %s", r.URL)
	}))
	defer srv.Close()
	res := s.call("test_escape", map[string]any{"via": "http", "target": srv.URL})
	if !res.IsError || !strings.HasPrefix(text(res), "PLUGIN_FAILED") {
		t.Fatalf("Extism HTTP must be refused: %s", text(res))
	}
	s.ok("read_file", map[string]any{"path": "a.txt"})
}

// tablesFolder is a plugin folder as its author leaves it: a source
// manifest of test-tables and wasm, a module written byte by byte (no
// compiler of ours emits table.grow).
func tablesFolder(t *testing.T, wasm []byte) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tables")
	os.MkdirAll(dir, 0o755)
	m := map[string]any{"abi": 2, "name": "test-tables", "version": "0.0.0",
		"description": "Test plugin tables: grows its table; built only by tests.",
		"wasm":        map[string]any{"file": "plugin.wasm", "sha256": ""}, "capabilities": []string{}}
	b, _ := json.MarshalIndent(m, "", "  ")
	os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644)
	os.WriteFile(filepath.Join(dir, "plugin.wasm"), wasm, 0o644)
	return dir
}

// A plugin growing its wasm table cannot take juju's memory: a table's
// entries live in juju's heap, outside the plugin's memory cap, and a
// table.grow by 2^32-16 made wazero ask Go for 32 GiB, whose out-of-memory
// error ended juju (no recover). Now table.grow past the bound gives the
// plugin -1, the host lives on, and a module whose table starts past the
// bound (2^27 entries, 1 GiB) is refused at build and install, before
// describe runs it.
func TestTableGrowKeepsTheHost(t *testing.T) {
	home := newHome(t)
	wasm := wasmtest.TablePlugin(0,
		wasmtest.Grower{Name: "test_tables_crash", Delta: 1<<32 - 16},
		wasmtest.Grower{Name: "test_tables_gig", Delta: 1 << 27},
		wasmtest.Grower{Name: "test_tables_ok", Delta: 16})
	dir := tablesFolder(t, wasm)
	wasmFile := filepath.Join(t.TempDir(), "plugin.wasm")
	os.WriteFile(wasmFile, wasm, 0o644)
	cliOK(t, home, "plugins", "build", "--wasm", wasmFile, dir)
	cliOK(t, home, "plugins", "install", dir, "--yes")

	root := workspace(t, map[string]string{"a.txt": "still here\n"})
	s := startHome(t, home, root)
	for _, c := range []struct{ tool, want string }{
		{"test_tables_crash", "refused"}, {"test_tables_gig", "refused"}, {"test_tables_ok", "grown"}, {"test_tables_crash", "refused"},
	} {
		if got := s.ok(c.tool, map[string]any{}); got != c.want {
			t.Fatalf("%s: %q, want %q", c.tool, got, c.want)
		}
		if got := s.ok("read_file", map[string]any{"path": "a.txt"}); !strings.Contains(got, "still here") {
			t.Fatalf("read_file after %s: %q", c.tool, got)
		}
	}

	big := wasmtest.TablePlugin(1<<27, wasmtest.Grower{Name: "test_tables_ok"})
	os.WriteFile(wasmFile, big, 0o644)
	_, errs, code := cli(t, home, nil, "plugins", "build", "--wasm", wasmFile, tablesFolder(t, nil))
	if code != 1 || !strings.Contains(errs, "table 0 starts with 134217728 entries") {
		t.Errorf("build --wasm of a table of 2^27 entries: exit %d, %s", code, errs)
	}
	// The built folder with the module swapped and its pin updated, as an
	// author could hand-stamp it.
	os.WriteFile(filepath.Join(dir, "plugin.wasm"), big, 0o644)
	editJSON(t, filepath.Join(dir, "manifest.json"), func(m map[string]any) {
		sum := sha256.Sum256(big)
		m["wasm"].(map[string]any)["sha256"] = hex.EncodeToString(sum[:])
	})
	_, errs, code = cli(t, newHome(t), nil, "plugins", "install", dir, "--yes")
	if code != 1 || !strings.Contains(errs, "plugin refused") || !strings.Contains(errs, "table 0 starts with 134217728 entries") {
		t.Errorf("install of a table of 2^27 entries: exit %d, %s", code, errs)
	}
}
