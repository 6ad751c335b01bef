package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"path"
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/internal/wasmstop"
	"github.com/jujutools/juju/sdk/abi"
)

// The core plugins hold what docs/SECURITY.md says they do: only core-exec
// may run programs or reach the network, only core may write files, and
// the plugins that parse project files or images (core-discover,
// core-image) may read files and nothing else. core-exec runs core's
// module under those grants of its own.
func TestModulesHoldWhatSecuritySays(t *testing.T) {
	plugins := builtPlugins(t)
	want := map[string][]abi.Capability{
		"core":          {abi.CapFSRead, abi.CapFSWrite, abi.CapGit, abi.CapLSP, abi.CapState},
		"core-exec":     {abi.CapExec, abi.CapExecShell, abi.CapGit, abi.CapNetFetch},
		"core-discover": {abi.CapFSRead},
		"core-image":    {abi.CapFSRead},
	}
	var names []string
	for _, p := range plugins {
		m := p.Manifest
		names = append(names, m.Name)
		got := slices.Clone(m.Capabilities)
		slices.Sort(got)
		if w := want[m.Name]; !slices.Equal(got, w) {
			t.Errorf("%s holds %v; docs/SECURITY.md says %v", m.Name, got, w)
		}
		// Lazy only where the warm-up should leave a module out.
		if m.Lazy != (m.Name == "core-image") {
			t.Errorf("%s: lazy is %v", m.Name, m.Lazy)
		}
	}
	if !slices.Equal(names, []string{"core", "core-discover", "core-exec", "core-image"}) {
		t.Errorf("core modules: %v", names)
	}
	// core-exec runs the core module: the very same bytes, under its own
	// manifest and grants; every other core plugin has a module of its own.
	byName := map[string]Plugin{}
	for _, p := range plugins {
		byName[p.Manifest.Name] = p
		if want := map[string]string{"core-exec": "core"}[p.Manifest.Name]; p.Manifest.Wasm.Module != want {
			t.Errorf("%s runs the module of %q; want %q", p.Manifest.Name, p.Manifest.Wasm.Module, want)
		}
	}
	core, err := byName["core"].Wasm()
	if err != nil {
		t.Fatal(err)
	}
	exec, err := byName["core-exec"].Wasm()
	if err != nil {
		t.Fatal(err)
	}
	if len(core) == 0 || unsafe.SliceData(core) != unsafe.SliceData(exec) || len(core) != len(exec) {
		t.Error("core-exec does not read the core module's own bytes")
	}
	if byName["core-exec"].Manifest.Wasm.SHA256 != byName["core"].Manifest.Wasm.SHA256 {
		t.Error("core-exec pins another hash than core's")
	}
	for _, p := range plugins {
		if p.Manifest.Name != "core-image" {
			continue
		}
		if len(p.Manifest.Tools) != 1 || p.Manifest.Tools[0].Name != "read_image" {
			t.Errorf("core-image serves %v; want read_image alone", p.Manifest.Tools)
		}
	}
}

// Every core module carries its stop checks: the host trusts them without
// decoding the module again (plugin.instrument), so a core tool looping
// past its deadline is stopped only if every loop checks the stop global.
func TestModulesAreStoppable(t *testing.T) {
	plugins := builtPlugins(t)
	for _, p := range plugins {
		wasm, err := p.Wasm()
		if err != nil {
			t.Fatal(err)
		}
		if err := wasmstop.Verify(wasm); err != nil {
			t.Errorf("%s: %v", p.Manifest.Name, err)
		}
	}
}

// builtPlugins returns the core plugins, skipping the test when they were
// not built.
func builtPlugins(t *testing.T) []Plugin {
	t.Helper()
	plugins, err := Plugins()
	if errors.Is(err, ErrNotBuilt) {
		t.Skip("core plugins not built (run `make plugins`)")
	}
	if err != nil {
		t.Fatal(err)
	}
	return plugins
}

// The embedded manifests are stored without white space (buildplugins
// -embed): juju decodes them on every start, and indented they took 1.6
// times as long. Each is still the JSON of its plugin.
func TestEmbeddedManifestsAreCompact(t *testing.T) {
	for _, p := range builtPlugins(t) {
		data, err := files.ReadFile(path.Join(p.dir, manifest.FileName))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := json.Compact(&b, data); err != nil {
			t.Fatalf("%s: %v", p.Manifest.Name, err)
		}
		if !bytes.Equal(b.Bytes(), data) {
			t.Errorf("%s: the embedded manifest is not compact (%d bytes, %d compact); rebuild with `make plugins`", p.Manifest.Name, len(data), b.Len())
		}
	}
}

// Each manifest the generated file holds as a Go value is the manifest
// beside the plugin's wasm, field for field: a start reads the value and
// never the JSON.
func TestBuiltManifestsAreTheFiles(t *testing.T) {
	plugins := builtPlugins(t)
	if builtManifests == nil {
		t.Skip("built without the generated wasmfiles.go (run `make plugins`)")
	}
	if len(builtManifests) != len(plugins) {
		t.Errorf("%d manifests as values for %d plugins", len(builtManifests), len(plugins))
	}
	for _, p := range plugins {
		data, err := files.ReadFile(path.Join(p.dir, manifest.FileName))
		if err != nil {
			t.Fatal(err)
		}
		want, err := manifest.DecodeEmbedded(data)
		if err != nil {
			t.Fatal(err)
		}
		v := builtManifests[p.dir]
		if v == nil {
			t.Errorf("%s: no manifest value", p.dir)
			continue
		}
		if !reflect.DeepEqual(v, want) || !reflect.DeepEqual(p.Manifest, want) {
			t.Errorf("%s: the manifest value differs from its file", p.dir)
		}
		// Plugins hands out copies: changing one leaves the value alone.
		p.Manifest.Capabilities[0] = "changed"
		if p.Manifest.Limits != nil {
			p.Manifest.Limits.Instances = -1
			if v.Limits.Instances == -1 {
				t.Errorf("%s: Plugins handed out the value's limits", p.dir)
			}
		}
		if len(p.Manifest.Tools) > 0 {
			p.Manifest.Tools[0].Name = "changed"
		}
		if reflect.DeepEqual(v, p.Manifest) || v.Capabilities[0] == "changed" || len(v.Tools) > 0 && v.Tools[0].Name == "changed" {
			t.Errorf("%s: Plugins handed out the value itself", p.dir)
		}
	}
}
