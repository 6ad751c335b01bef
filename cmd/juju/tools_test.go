package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

// fakeLoaded is a plugin as the host lists it, without a runtime: enough
// for the commands that only show the catalog.
func fakeLoaded(m *manifest.Manifest, src host.Source, granted []abi.Capability, err error) *host.Loaded {
	return &host.Loaded{Plugin: &plugin.Plugin{Manifest: m}, Source: src, Granted: granted, Err: err}
}

func fakeCatalog() []*host.Tool {
	read := fakeLoaded(&manifest.Manifest{Name: "core", Version: "0.1.0"}, host.SourceCore, nil, nil)
	edit := fakeLoaded(&manifest.Manifest{Name: "lint", Version: "2.0.0"}, host.SourceInstalled, nil, nil)
	return []*host.Tool{
		{Plugin: edit, Spec: abi.ToolSpec{
			Name: "edit_file", Tier: abi.TierEdit, Title: "Edit a file",
			Description: "Replace an exact string in a file. The old text must occur exactly once.",
			InputSchema: json.RawMessage(`{"type":"object"}`),
			Annotations: abi.Annotations{Destructive: true},
		}},
		{Plugin: read, Spec: abi.ToolSpec{
			Name: "read_file", Tier: abi.TierRead,
			Description:  "Read a text file by lines.\nLong details follow.",
			InputSchema:  json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`),
			OutputSchema: json.RawMessage(`{"type":"object"}`),
			Annotations:  abi.Annotations{ReadOnly: true, Idempotent: true},
		}},
	}
}

func TestToolsText(t *testing.T) {
	var out bytes.Buffer
	if err := runTools(&out, fakeCatalog(), &toolsOptions{}); err != nil {
		t.Fatal(err)
	}
	want := `NAME       TIER  PLUGIN  DESCRIPTION
edit_file  E     lint    Replace an exact string in a file.
read_file  R     core    Read a text file by lines.

2 tools. Tiers: R read, E edit, X exec (juju tools --help).
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

func TestToolsJSON(t *testing.T) {
	var out bytes.Buffer
	if err := runTools(&out, fakeCatalog(), &toolsOptions{json: true}); err != nil {
		t.Fatal(err)
	}
	want := `[
  {
    "name": "edit_file",
    "title": "Edit a file",
    "tier": "E",
    "plugin": "lint",
    "description": "Replace an exact string in a file. The old text must occur exactly once.",
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": false,
      "openWorldHint": false
    },
    "inputSchema": {
      "type": "object"
    }
  },
  {
    "name": "read_file",
    "title": "",
    "tier": "R",
    "plugin": "core",
    "description": "Read a text file by lines.\nLong details follow.",
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    },
    "inputSchema": {
      "type": "object",
      "properties": {
        "path": {
          "type": "string"
        }
      }
    },
    "outputSchema": {
      "type": "object"
    }
  }
]
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestToolsCatalog lists the real catalog once the core plugins are built.
func TestToolsCatalog(t *testing.T) {
	h := catalog(t)
	var out bytes.Buffer
	if err := runTools(&out, h.Tools(), &toolsOptions{json: true}); err != nil {
		t.Fatal(err)
	}
	var tools []toolJSON
	if err := json.Unmarshal(out.Bytes(), &tools); err != nil {
		t.Fatal(err)
	}
	if len(tools) == 0 || len(tools) != len(h.Tools()) {
		t.Fatalf("%d tools in JSON, %d in the catalog", len(tools), len(h.Tools()))
	}
	if !slices.IsSortedFunc(tools, func(a, b toolJSON) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("tools are not sorted by name")
	}
	for _, tool := range tools {
		if tool.Name == "" || tool.Plugin == "" || tool.Description == "" || len(tool.InputSchema) == 0 ||
			!strings.Contains("REX", tool.Tier) || len(tool.Tier) != 1 {
			t.Errorf("incomplete tool %+v", tool)
		}
		if tool.Annotations.ReadOnly != (tool.Tier == abi.TierRead) {
			t.Errorf("%s: tier %s with readOnlyHint %v", tool.Name, tool.Tier, tool.Annotations.ReadOnly)
		}
	}
}

func TestOneLine(t *testing.T) {
	for _, tt := range []struct {
		in   string
		max  int
		want string
	}{
		{"Read a file. More text.", 72, "Read a file."},
		{"First line\nsecond line", 72, "First line"},
		{"  padded  ", 72, "padded"},
		{"v1.2 is a version. Next", 72, "v1.2 is a version."},
		{"a very long description without any stop at all", 20, "a very long…"},
		{"ünïcödé ünïcödé ünïcödé", 10, "ünïcödé…"},
		// What the plugin wrote is rendered, a look-alike escaped; the
		// ellipsis juju adds is not.
		{"Reads раths one by one, all of them at once", 20, `Reads \u0440\u0430ths one by…`},
		{"Ends on a\x1bb word cut here", 14, `Ends on a\x1bb…`},
	} {
		if got := shownLine(tt.in, tt.max); got != tt.want {
			t.Errorf("shownLine(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}

// TestToolsTextEllipsis lists the real catalog as text: a description cut
// short ends with "…", never with its escape "\u2026" (the rendering
// escapes a non-ASCII character inside a word of ASCII letters, and the
// ellipsis was once added before rendering, to the word it ends).
func TestToolsTextEllipsis(t *testing.T) {
	h := catalog(t)
	var out bytes.Buffer
	if err := runTools(&out, h.Tools(), &toolsOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), `\u2026`) || !strings.Contains(out.String(), "…\n") {
		t.Errorf("juju tools cuts its descriptions with an escaped ellipsis:\n%s", out.String())
	}
}

var errFake = errors.New("tool \"read_file\" is already provided by plugin core")
