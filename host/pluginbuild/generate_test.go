package pluginbuild

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

const identity = `{"abi":1,"name":"demo","version":"1.2.3","description":"A demo.",
 "wasm":{"file":"plugin.wasm","sha256":""},"capabilities":["fs.read"],"limits":{"timeoutMs":500},"tools":[]}`

func demoDescription() *abi.Description {
	return &abi.Description{Tools: []abi.ToolSpec{{
		Name:        "demo_tool",
		Description: "Does <demo> things & more.",
		Tier:        abi.TierRead,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"additionalProperties":false}`),
		Annotations: abi.Annotations{ReadOnly: true, Idempotent: true},
	}}}
}

func TestGenerateKeepsIdentity(t *testing.T) {
	gen, err := Generate([]byte(identity), demoDescription())
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.DecodeSource(gen)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "demo" || m.Version != "1.2.3" || m.Description != "A demo." || m.Limits.TimeoutMs != 500 ||
		len(m.Capabilities) != 1 || len(m.Tools) != 1 || m.Tools[0].Name != "demo_tool" {
		t.Fatalf("generated %s", gen)
	}
	if !strings.Contains(string(gen), "Does <demo> things & more.") || !strings.HasSuffix(string(gen), "}\n") {
		t.Errorf("formatting: %s", gen)
	}
	if diffs, err := Compare(gen, demoDescription()); err != nil || diffs != nil {
		t.Errorf("a generated manifest must compare equal: %v %v", diffs, err)
	}
	// Formatting alone is no difference.
	var v any
	json.Unmarshal(gen, &v)
	compact, _ := json.Marshal(v)
	if diffs, _ := Compare(compact, demoDescription()); diffs != nil {
		t.Errorf("a reformatted manifest must compare equal: %v", diffs)
	}
}

func TestCompareNamesTheDifference(t *testing.T) {
	gen, err := Generate([]byte(identity), demoDescription())
	if err != nil {
		t.Fatal(err)
	}
	changed := func(f func(d *abi.Description)) *abi.Description {
		d := demoDescription()
		f(d)
		return d
	}
	tests := map[string]struct {
		d    *abi.Description
		want string
	}{
		"description": {changed(func(d *abi.Description) { d.Tools[0].Description = "New." }), "tool demo_tool: title, description, tier or annotations differ"},
		"input": {changed(func(d *abi.Description) {
			d.Tools[0].InputSchema = json.RawMessage(`{"type":"object","properties":{}}`)
		}), "tool demo_tool: inputSchema differs"},
		"output":    {changed(func(d *abi.Description) { d.Tools[0].OutputSchema = json.RawMessage(`{"type":"object"}`) }), "tool demo_tool: outputSchema differs"},
		"new tool":  {changed(func(d *abi.Description) { d.Tools = append(d.Tools, d.Tools[0]); d.Tools[1].Name = "other" }), "tool other is missing from the manifest"},
		"gone tool": {changed(func(d *abi.Description) { d.Tools[0].Name = "renamed" }), "tool demo_tool is in the manifest but the plugin does not export it"},
	}
	for name, tt := range tests {
		diffs, err := Compare(gen, tt.d)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !strings.Contains(strings.Join(diffs, "\n"), tt.want) {
			t.Errorf("%s: diffs %q lack %q", name, diffs, tt.want)
		}
	}
}

func TestGenerateRejectsInvalid(t *testing.T) {
	d := demoDescription()
	d.Tools[0].Annotations.ReadOnly = false // a read-tier tool must be read-only
	if _, err := Generate([]byte(identity), d); err == nil {
		t.Fatal("an invalid manifest was generated")
	}
	if _, err := Generate([]byte(`{"abi":1,"bogus":true}`), demoDescription()); err == nil {
		t.Fatal("unknown fields in the source were accepted")
	}
}

// A module that describes tools of other plugins never matches an
// installable manifest, and the build of an installable plugin refuses
// it: only juju's core module serves several plugins.
func TestOtherPluginsRefusedOutsideTheCore(t *testing.T) {
	d := demoDescription()
	gen, err := Generate([]byte(identity), d)
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.DecodeSource(gen)
	if err != nil {
		t.Fatal(err)
	}
	if diffs := Mismatch(m, d); len(diffs) != 0 {
		t.Fatalf("the manifest written from d: %v", diffs)
	}
	d.Plugins = map[string][]abi.ToolSpec{"other": {d.Tools[0]}}
	diffs := Mismatch(m, d)
	if len(diffs) != 1 || !strings.Contains(diffs[0], "another plugin, other") {
		t.Fatalf("diffs: %v", diffs)
	}
}

// juju plugins build refuses a module that serves other plugins too.
func TestBuildFolderRefusesOtherPlugins(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a plugin")
	}
	out := t.TempDir()
	_, err := BuildFolder(t.Context(), filepath.Join("..", "..", "plugins", "testplugins", "shared"), out, "")
	if !errors.Is(err, ErrModule) || !strings.Contains(err.Error(), "test-shared-reader") {
		t.Fatalf("err = %v", err)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("wrote %d files", len(entries))
	}
}
