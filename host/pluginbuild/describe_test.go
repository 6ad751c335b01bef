package pluginbuild

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/wasmtest"
)

// A module whose _initialize never returns (a Go init that loops or
// waits) is stopped at the limit, and the author reads that its start,
// not its juju_describe, is what never finished.
func TestDescribeNamesAStartThatNeverEnds(t *testing.T) {
	old := describeTimeout
	describeTimeout = time.Second
	t.Cleanup(func() { describeTimeout = old })
	for _, abi1 := range []bool{false, true} {
		wasm := wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "t", Start: wasmtest.StartInitialize, ABI1: abi1})
		_, err := Describe(t.Context(), wasm)
		if !errors.Is(err, ErrDescribe) || !strings.Contains(err.Error(), "did not start within 1s") || !strings.Contains(err.Error(), "_initialize") {
			t.Errorf("abi 1: %v: %v", abi1, err)
		}
	}
}

// The manifest's abi is the module's, as its tools are: build writes the
// version the module speaks over the one its author wrote, which would
// fail every call once installed.
func TestBuildWasmWritesTheModulesABI(t *testing.T) {
	src := t.TempDir()
	wasm := filepath.Join(src, "build.wasm")
	if err := os.WriteFile(wasm, wasmtest.StartPlugin(wasmtest.StartOptions{Tool: "t"}), 0o600); err != nil {
		t.Fatal(err)
	}
	wrote, want := 1, 2 // an ABI 2 module, an author who wrote 1
	man := fmt.Sprintf(`{"abi": %d, "name": "p", "version": "1", "description": "d", "wasm": {"file": "plugin.wasm", "sha256": ""}, "capabilities": []}`, wrote)
	if err := os.WriteFile(filepath.Join(src, "manifest.json"), []byte(man), 0o600); err != nil {
		t.Fatal(err)
	}
	m, err := BuildWasm(t.Context(), src, wasm, src, "")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(src, "manifest.json"))
	if m.ABI != want || !strings.Contains(string(data), fmt.Sprintf(`"abi": %d`, want)) {
		t.Errorf("the built manifest says abi %d:\n%s", m.ABI, data)
	}
}

// The manifest's part the author writes is checked before the go build,
// and the error names manifest.json, not a manifest the build generated.
func TestBuildFolderChecksTheAuthorsManifestFirst(t *testing.T) {
	src := t.TempDir() // no Go module: a build would fail otherwise
	man := `{"abi": 2, "name": "p", "version": "1", "description": "d", "wasm": {"file": "plugin.wasm"}, "capabilities": ["fs.raed"]}`
	if err := os.WriteFile(filepath.Join(src, "manifest.json"), []byte(man), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := BuildFolder(t.Context(), src, src, "")
	if err == nil || !strings.Contains(err.Error(), filepath.Join(src, "manifest.json")+`: invalid manifest: unknown capability "fs.raed"`) {
		t.Fatalf("err = %v", err)
	}
}
