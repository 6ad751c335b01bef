package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

func infoPlugins() []*host.Loaded {
	l := fakeLoaded(&manifest.Manifest{
		ABI: 2, Name: "rake", Version: "1.2.0", Description: "Lists Rakefile tasks.",
		Wasm:         manifest.Wasm{File: "plugin.wasm", SHA256: strings.Repeat("ab", 32)},
		Capabilities: []abi.Capability{abi.CapFSRead, abi.CapExec},
		Tools: []abi.ToolSpec{{Name: "rake_tasks", Tier: abi.TierRead,
			Description: "Lists the tasks of the Rakefile. Use it before running rake."}},
		Discoverers: []abi.DiscovererSpec{{Name: "rake", Files: []string{"Rakefile"}}},
		// Past every ceiling: the owner is shown what it will run under.
		Limits: &manifest.Limits{MemoryMiB: 4096, Instances: 99, TimeoutMs: 1 << 40},
	}, host.SourceInstalled, []abi.Capability{abi.CapFSRead}, nil)
	l.Dir = "/data/plugins/rake"
	return append(fakePlugins(), l)
}

func TestPluginsInfoText(t *testing.T) {
	var out bytes.Buffer
	if err := runPluginsInfo(&out, infoPlugins(), "rake", &pluginsInfoOptions{}); err != nil {
		t.Fatal(err)
	}
	want := `rake 1.2.0 (installed)
  Lists Rakefile tasks.
folder:  /data/plugins/rake
sha256:  ` + strings.Repeat("ab", 32) + `
state:   not compiled
limits:  1024 MiB of memory per instance, up to 16 instances at once (16.0 GiB together), 600 s a call
capabilities:
  fs.read (granted): read files and list folders inside the workspace roots (never secrets)
  exec (NOT granted): run programs on this machine
tools:
  rake_tasks  R  Lists the tasks of the Rakefile.
discoverer rake: [Rakefile]
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

func TestPluginsInfoJSONAndRefused(t *testing.T) {
	var out bytes.Buffer
	if err := runPluginsInfo(&out, infoPlugins(), "dup", &pluginsInfoOptions{json: true}); err != nil {
		t.Fatal(err)
	}
	var got pluginInfoJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.State != "refused" || got.Error == "" || got.Asks == nil || got.ToolList == nil || got.Discoverers == nil {
		t.Errorf("info --json = %+v", got)
	}
	if bytes.Contains(out.Bytes(), []byte("null")) {
		t.Errorf("null in\n%s", out.String())
	}
	// A refused plugin holds nothing and a grant would not change that:
	// its capabilities are what it asks for, not grants to be given.
	out.Reset()
	if err := runPluginsInfo(&out, infoPlugins(), "dup", &pluginsInfoOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "capabilities (it asks for these; refused, it holds none):\n  fs.read: read files") ||
		strings.Contains(out.String(), "NOT granted") {
		t.Errorf("info of a refused plugin:\n%s", out.String())
	}
	err := runPluginsInfo(&out, infoPlugins(), "nothing", &pluginsInfoOptions{})
	if err == nil || !strings.Contains(err.Error(), "juju plugins list") {
		t.Errorf("unknown plugin: %v", err)
	}
}
