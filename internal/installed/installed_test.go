package installed

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

const testManifest = `{
  "abi": 1, "name": "demo", "version": "1.0.0", "description": "d",
  "wasm": {"file": "plugin.wasm", "sha256": "%s"},
  "capabilities": ["fs.read", "state"],
  "tools": [{"name": "demo_tool", "description": "d", "tier": "R",
    "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}, "annotations": {"readOnlyHint": true}}]
}`

// installedDemo lays out data/plugins/demo with a fake wasm and a pin, the
// way juju plugins install does, and returns its folder.
func installedDemo(t *testing.T, granted ...abi.Capability) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "plugins", "demo")
	os.MkdirAll(dir, 0o700)
	wasm := []byte("\x00asm\x01\x00\x00\x00")
	m := []byte(fmt.Sprintf(testManifest, Hash(wasm)))
	os.WriteFile(filepath.Join(dir, "plugin.wasm"), wasm, 0o600)
	os.WriteFile(filepath.Join(dir, manifest.FileName), m, 0o600)
	writeGrants(t, dir, Grants{Granted: granted, SHA256: Hash(wasm), ManifestSHA256: Hash(m)})
	return dir
}

func writeGrants(t *testing.T, dir string, g Grants) {
	t.Helper()
	if err := WriteGrants(dir, g); err != nil {
		t.Fatal(err)
	}
}

func TestReadInstalledChecksThePin(t *testing.T) {
	dir := installedDemo(t, abi.CapFSRead, abi.CapExec)
	in, err := ReadInstalled(dir)
	if err != nil {
		t.Fatal(err)
	}
	// exec is not asked for: the grant is ignored.
	if len(in.Granted) != 1 || in.Granted[0] != abi.CapFSRead {
		t.Errorf("granted %v", in.Granted)
	}
	if err := in.CheckWasm(); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name   string
		change func(dir string)
		want   error
	}{
		{"no pin", func(dir string) { os.Remove(filepath.Join(dir, GrantsFile)) }, ErrNotPinned},
		{"empty pin", func(dir string) {
			os.WriteFile(filepath.Join(dir, GrantsFile), []byte(`{"granted": ["fs.read"]}`), 0o600)
		}, ErrNotPinned},
		{"state space not one juju makes", func(dir string) {
			g, _ := ReadPin(dir)
			g.Space = "../../other"
			writeGrants(t, dir, g)
		}, errBadSpace},
		{"manifest edited", func(dir string) {
			m, _ := os.ReadFile(filepath.Join(dir, manifest.FileName))
			os.WriteFile(filepath.Join(dir, manifest.FileName), append(m, '\n'), 0o600)
		}, ErrManifestPin},
		{"manifest and its pin swapped for another wasm", func(dir string) {
			var g Grants
			b, _ := os.ReadFile(filepath.Join(dir, GrantsFile))
			json.Unmarshal(b, &g)
			m := []byte(fmt.Sprintf(testManifest, Hash([]byte("other"))))
			os.WriteFile(filepath.Join(dir, manifest.FileName), m, 0o600)
			g.ManifestSHA256 = Hash(m)
			writeGrants(t, dir, g)
		}, ErrWasmPin},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := installedDemo(t)
			tc.change(dir)
			if _, err := ReadInstalled(dir); !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
		})
	}
	dir = installedDemo(t)
	os.WriteFile(filepath.Join(dir, "plugin.wasm"), []byte("\x00asm\x01\x00\x00\x00\x00"), 0o600)
	in, err = ReadInstalled(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := in.CheckWasm(); !errors.Is(err, ErrWasmMismatch) {
		t.Errorf("swapped wasm: %v", err)
	}
}
