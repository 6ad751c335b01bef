package host

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/internal/config"
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
	l := &Loaded{Source: SourceInstalled, Dir: dir, pin: newPinWatch(dir, in.Pin)}
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

// writeDemo writes the demo plugin's manifest of version, asking for caps,
// into dir with its pin and grants, as an install of that version does.
func writeDemo(t *testing.T, dir, version string, caps, grants []abi.Capability) {
	t.Helper()
	wasm := []byte("\x00asm\x01\x00\x00\x00" + version)
	asks, _ := json.Marshal(caps)
	m := []byte(fmt.Sprintf(`{
  "abi": 1, "name": "demo", "version": %q, "description": "d",
  "wasm": {"file": "plugin.wasm", "sha256": "%s"},
  "capabilities": %s,
  "tools": [{"name": "demo_tool", "description": "d", "tier": "R",
    "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}, "annotations": {"readOnlyHint": true}}]
}`, version, installed.Hash(wasm), asks))
	if err := os.WriteFile(filepath.Join(dir, "plugin.wasm"), wasm, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, manifest.FileName), m, 0o600); err != nil {
		t.Fatal(err)
	}
	writeGrants(t, dir, installed.Grants{Granted: grants, SHA256: installed.Hash(wasm), ManifestSHA256: installed.Hash(m)})
}

// A reload keeps a loaded plugin only while its folder holds the version
// it was loaded from. A plugin removed and installed again in a folder of
// the same identity (the inode reused, here the very same folder) is
// loaded afresh, and the old code, until it is retired, holds none of the
// new version's grants, even one its own manifest asks for.
func TestReloadKeepsOnlyTheVersionLoaded(t *testing.T) {
	data := t.TempDir()
	dir := filepath.Join(installed.PluginsDir(data), "demo")
	os.MkdirAll(dir, 0o700)
	writeDemo(t, dir, "1.0.0", []abi.Capability{abi.CapState}, []abi.Capability{abi.CapState})
	rt, err := plugin.NewRuntime(plugin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close(context.Background())
	log := slog.New(slog.DiscardHandler)
	h := &Host{cfg: Config{Dirs: config.Dirs{Data: data}}, log: log, runtime: rt}

	v1 := h.loadInstalled(nil)[0]
	if v1.Err != nil || !v1.Plugin.Granted(abi.CapState) {
		t.Fatalf("v1: %v", v1.Err)
	}
	before, _ := os.Stat(dir)
	if again := h.loadInstalled(map[string]*Loaded{"demo": v1})[0]; again != v1 {
		t.Fatal("a reload replaced a plugin whose folder did not change")
	}

	// Version 2 in the same folder, asking for fs.read and granted it.
	writeDemo(t, dir, "2.0.0", []abi.Capability{abi.CapFSRead, abi.CapState}, []abi.Capability{abi.CapFSRead, abi.CapState})
	if after, _ := os.Stat(dir); !os.SameFile(before, after) {
		t.Fatal("the folder's identity changed: the test proves nothing")
	}
	v1.refreshGrants(log)
	if v1.Plugin.Granted(abi.CapFSRead) || v1.Plugin.Granted(abi.CapState) {
		t.Fatal("the old version holds the new version's grants")
	}
	v2 := h.loadInstalled(map[string]*Loaded{"demo": v1})[0]
	if v2 == v1 {
		t.Fatal("a reload kept the old version serving in a folder that holds another")
	}
	if v2.Err != nil || v2.Manifest.Version != "2.0.0" || !v2.Plugin.Granted(abi.CapFSRead) {
		t.Fatalf("v2: version %s, fs.read %v, err %v", v2.Manifest.Version, v2.Plugin.Granted(abi.CapFSRead), v2.Err)
	}
}
