package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jujutools/juju/host/plugin"
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

// writeGrants replaces grants.json the way the CLI does: a new file renamed
// over the old one.
func writeGrants(t *testing.T, dir string, g Grants) {
	t.Helper()
	data, _ := json.Marshal(g)
	tmp := filepath.Join(dir, ".tmp-grants")
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, GrantsFile)); err != nil {
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

// Grants follow grants.json while juju runs, also under concurrent calls.
func TestRefreshGrants(t *testing.T) {
	dir := installedDemo(t)
	in, err := ReadInstalled(dir)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := plugin.NewRuntime(plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	l := &Loaded{Source: SourceInstalled, Dir: dir, pin: newPinWatch(dir)}
	l.Plugin = rt.Load(in.Manifest, nil, in.Granted, nil)
	log := slog.New(slog.DiscardHandler)

	l.refreshGrants(log)
	if l.Plugin.Granted(abi.CapFSRead) {
		t.Fatal("granted before any grant")
	}
	writeGrants(t, dir, Grants{Granted: []abi.Capability{abi.CapFSRead}, SHA256: in.Pin.SHA256, ManifestSHA256: in.Pin.ManifestSHA256})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				l.refreshGrants(log)
				l.Plugin.Granted(abi.CapFSRead)
			}
		}()
	}
	wg.Wait()
	if !l.Plugin.Granted(abi.CapFSRead) {
		t.Fatal("the grant did not apply")
	}
	// A revoke applies at the next look.
	writeGrants(t, dir, Grants{Granted: nil, SHA256: in.Pin.SHA256, ManifestSHA256: in.Pin.ManifestSHA256})
	l.refreshGrants(log)
	if l.Plugin.Granted(abi.CapFSRead) {
		t.Fatal("the revoke did not apply")
	}
	// A plugin removed (or tampered with) while juju runs holds nothing.
	writeGrants(t, dir, Grants{Granted: []abi.Capability{abi.CapFSRead}, SHA256: in.Pin.SHA256, ManifestSHA256: in.Pin.ManifestSHA256})
	os.RemoveAll(dir)
	l.refreshGrants(log)
	if l.Plugin.Granted(abi.CapFSRead) {
		t.Fatal("a removed plugin kept its grant")
	}
}
