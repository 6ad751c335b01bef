package host

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/internal/installed"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

// installedDemo lays out data/plugins/demo with a fake wasm and a pin, the
// way juju plugins install does, and returns its folder.
func installedDemo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "plugins", "demo")
	os.MkdirAll(dir, 0o700)
	wasm := []byte("\x00asm\x01\x00\x00\x00")
	m := []byte(fmt.Sprintf(`{
  "abi": 1, "name": "demo", "version": "1.0.0", "description": "d",
  "wasm": {"file": "plugin.wasm", "sha256": "%s"},
  "capabilities": ["fs.read", "state"],
  "tools": [{"name": "demo_tool", "description": "d", "tier": "R",
    "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}, "annotations": {"readOnlyHint": true}}]
}`, installed.Hash(wasm)))
	os.WriteFile(filepath.Join(dir, "plugin.wasm"), wasm, 0o600)
	os.WriteFile(filepath.Join(dir, manifest.FileName), m, 0o600)
	writeGrants(t, dir, installed.Grants{SHA256: installed.Hash(wasm), ManifestSHA256: installed.Hash(m)})
	return dir
}

func writeGrants(t *testing.T, dir string, g installed.Grants) {
	t.Helper()
	if err := installed.WriteGrants(dir, g); err != nil {
		t.Fatal(err)
	}
}

// installed.Grants follow grants.json while juju runs, also under concurrent calls.
func TestRefreshGrants(t *testing.T) {
	dir := installedDemo(t)
	in, err := installed.ReadInstalled(dir)
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
	writeGrants(t, dir, installed.Grants{Granted: []abi.Capability{abi.CapFSRead}, SHA256: in.Pin.SHA256, ManifestSHA256: in.Pin.ManifestSHA256})
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
	writeGrants(t, dir, installed.Grants{Granted: nil, SHA256: in.Pin.SHA256, ManifestSHA256: in.Pin.ManifestSHA256})
	l.refreshGrants(log)
	if l.Plugin.Granted(abi.CapFSRead) {
		t.Fatal("the revoke did not apply")
	}
	// A plugin removed (or tampered with) while juju runs holds nothing.
	writeGrants(t, dir, installed.Grants{Granted: []abi.Capability{abi.CapFSRead}, SHA256: in.Pin.SHA256, ManifestSHA256: in.Pin.ManifestSHA256})
	os.RemoveAll(dir)
	l.refreshGrants(log)
	if l.Plugin.Granted(abi.CapFSRead) {
		t.Fatal("a removed plugin kept its grant")
	}
}
