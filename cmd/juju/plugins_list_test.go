package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

func fakePlugins() []*host.Loaded {
	core := fakeLoaded(&manifest.Manifest{
		ABI: 2, Name: "core", Version: "0.1.0",
		Capabilities: []abi.Capability{abi.CapFSRead, abi.CapFSWrite},
		Tools:        make([]abi.ToolSpec, 25),
	}, host.SourceCore, []abi.Capability{abi.CapFSRead, abi.CapFSWrite}, nil)
	installed := fakeLoaded(&manifest.Manifest{
		ABI: 2, Name: "lint", Version: "2.0.0",
		Capabilities: []abi.Capability{abi.CapFSRead, abi.CapExec},
		Tools:        make([]abi.ToolSpec, 1),
	}, host.SourceInstalled, []abi.Capability{abi.CapFSRead}, nil)
	installed.Dir = "/data/plugins/lint"
	refused := fakeLoaded(&manifest.Manifest{
		ABI: 2, Name: "dup", Version: "1.0.0", Tools: make([]abi.ToolSpec, 1),
		Capabilities: []abi.Capability{abi.CapFSRead, abi.CapExec},
	}, host.SourceInstalled, nil, errFake)
	refused.Dir = "/data/plugins/dup"
	broken := fakeLoaded(&manifest.Manifest{Name: "broken"}, host.SourceInstalled, nil, manifest.ErrInvalid)
	return []*host.Loaded{core, installed, refused, broken}
}

func TestPluginsListText(t *testing.T) {
	var out bytes.Buffer
	if err := runPluginsList(&out, fakePlugins(), &pluginsListOptions{}); err != nil {
		t.Fatal(err)
	}
	want := `NAME    VERSION  SOURCE     TOOLS  STATE         CAPABILITIES
core    0.1.0    core       25     not compiled  fs.read, fs.write
lint    2.0.0    installed  1      not compiled  fs.read, exec (not granted)
dup     1.0.0    installed  1      refused       fs.read, exec (refused: holds none)
broken  -        installed  0      refused       unknown (refused)

dup was refused: tool "read_file" is already provided by plugin core

broken was refused: invalid manifest
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

func TestPluginsListJSON(t *testing.T) {
	var out bytes.Buffer
	if err := runPluginsList(&out, fakePlugins(), &pluginsListOptions{json: true}); err != nil {
		t.Fatal(err)
	}
	var got []pluginJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("%d plugins", len(got))
	}
	lint := got[1]
	if lint.Name != "lint" || lint.Source != host.SourceInstalled || lint.Dir != "/data/plugins/lint" ||
		len(lint.Capabilities) != 2 || len(lint.Granted) != 1 || lint.State != "not compiled" || lint.Tools != 1 || lint.Error != "" {
		t.Errorf("lint = %+v", lint)
	}
	if got[2].State != "refused" || got[2].Error == "" || len(got[2].Capabilities) != 2 || len(got[2].Granted) != 0 {
		t.Errorf("dup = %+v", got[2])
	}
	// A manifest that could not be read asks for nothing known: no
	// capabilities at all, rather than an empty list, which says "none".
	if bytes.Count(out.Bytes(), []byte(`"capabilities"`)) != 3 || got[3].Capabilities != nil {
		t.Errorf("broken = %+v in\n%s", got[3], out.String())
	}
	// Lists are never null, so scripts can iterate them.
	if !bytes.Contains(out.Bytes(), []byte(`"granted": []`)) || bytes.Contains(out.Bytes(), []byte("null")) {
		t.Errorf("null lists in\n%s", out.String())
	}
}

// TestPluginsListCatalog lists the real plugins once the core ones are built.
func TestPluginsListCatalog(t *testing.T) {
	h := catalog(t)
	var out bytes.Buffer
	if err := runPluginsList(&out, h.Plugins(), &pluginsListOptions{json: true}); err != nil {
		t.Fatal(err)
	}
	var got []pluginJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	tools := 0
	for _, p := range got {
		if p.Source != host.SourceCore || p.Error != "" || p.Version == "" {
			t.Errorf("core plugin %+v", p)
		}
		if len(p.Granted) != len(p.Capabilities) {
			t.Errorf("%s: core plugins hold what they ask for: %v vs %v", p.Name, p.Granted, p.Capabilities)
		}
		tools += p.Tools
	}
	if tools != len(h.Tools()) {
		t.Errorf("plugins provide %d tools, the catalog has %d", tools, len(h.Tools()))
	}
}

// A plugin's name, version and refusal are its author's text: a folder
// dropped into the plugins directory, a manifest's version, a decoder
// error quoting a field. The list shows them escaped.
func TestPluginsListEscapes(t *testing.T) {
	hostile := fakeLoaded(&manifest.Manifest{Name: "evil\x1b[2J", Version: "1.0\nFAKE ROW"}, host.SourceInstalled, nil,
		errors.New("json: unknown field \"\x1b]0;owned\a\""))
	var out bytes.Buffer
	if err := runPluginsList(&out, []*host.Loaded{hostile}, &pluginsListOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(out.String(), "\x1b\a") || strings.Contains(out.String(), "\nFAKE ROW") {
		t.Errorf("raw control characters in\n%q", out.String())
	}
	for _, want := range []string{`evil\x1b[2J`, `1.0\nFAKE ROW`, `"\x1b]0;owned\x07"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the list does not show %s:\n%s", want, out.String())
		}
	}
}
