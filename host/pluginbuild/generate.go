package pluginbuild

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

// Generate returns the source manifest src with its tools and discoverers
// replaced by those of d, formatted, and its wasm hash cleared. The
// identity (name, version, description, capabilities, limits) is kept. src
// may lack tools (a plugin's first manifest); the result is validated.
func Generate(src []byte, d *abi.Description) ([]byte, error) {
	m, err := decodeLoose(src)
	if err != nil {
		return nil, err
	}
	m.Tools = d.Tools
	m.Discoverers = d.Discoverers
	m.Wasm.SHA256 = ""
	out, err := Format(m)
	if err != nil {
		return nil, err
	}
	if _, err := manifest.DecodeSource(out); err != nil {
		return nil, fmt.Errorf("pluginbuild: the generated manifest of %s is not valid: %w", m.Name, err)
	}
	return out, nil
}

// Compare reports how the committed source manifest differs from the one
// Generate makes from d, one line per difference; nil means they agree.
// Formatting and the order of object keys are ignored, everything else
// (including the order of tools) counts.
func Compare(committed []byte, d *abi.Description) ([]string, error) {
	want, err := Generate(committed, d)
	if err != nil {
		return nil, err
	}
	have, err := decodeLoose(committed)
	if err != nil {
		return nil, err
	}
	wantM, err := decodeLoose(want)
	if err != nil {
		return nil, err
	}
	if equalJSON(have, wantM) {
		return nil, nil
	}
	diffs := toolDiffs(have.Tools, wantM.Tools, true)
	if !equalJSON(have.Discoverers, wantM.Discoverers) {
		diffs = append(diffs, "discoverers differ")
	}
	if have.Wasm.SHA256 != "" {
		diffs = append(diffs, "wasm.sha256 must be empty in a source manifest")
	}
	if len(diffs) == 0 {
		diffs = append(diffs, "the manifest differs from the generated one")
	}
	return diffs, nil
}

// Mismatch reports how the tools and discoverers of an installable
// manifest differ from the plugin's own description, one line per
// difference (each tool's title, description, tier, input and output
// schema and annotations; each discoverer's globs); nil means the manifest
// tells the truth. The order of tools and discoverers does not count. A
// module that describes tools of other plugins (abi.Description.Plugins)
// never matches: an installed plugin serves its own tools only.
func Mismatch(m *manifest.Manifest, d *abi.Description) []string {
	diffs := toolDiffs(m.Tools, d.Tools, false)
	for _, other := range slices.Sorted(maps.Keys(d.Plugins)) {
		diffs = append(diffs, fmt.Sprintf("the module describes tools of another plugin, %s, which only juju's core module may serve", other))
	}
	files := map[string][]string{}
	for _, x := range d.Discoverers {
		files[x.Name] = x.Files
	}
	for _, x := range m.Discoverers {
		want, ok := files[x.Name]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("discoverer %s is in the manifest but the plugin does not export it", x.Name))
		case !equalJSON(x.Files, want):
			diffs = append(diffs, fmt.Sprintf("discoverer %s: files differ", x.Name))
		}
		delete(files, x.Name)
	}
	for _, x := range d.Discoverers {
		if _, ok := files[x.Name]; ok {
			diffs = append(diffs, fmt.Sprintf("discoverer %s is missing from the manifest", x.Name))
		}
	}
	return diffs
}

func toolDiffs(have, want []abi.ToolSpec, order bool) []string {
	var diffs []string
	find := func(ts []abi.ToolSpec, name string) *abi.ToolSpec {
		i := slices.IndexFunc(ts, func(t abi.ToolSpec) bool { return t.Name == name })
		if i < 0 {
			return nil
		}
		return &ts[i]
	}
	for _, w := range want {
		h := find(have, w.Name)
		switch {
		case h == nil:
			diffs = append(diffs, fmt.Sprintf("tool %s is missing from the manifest", w.Name))
		case !equalJSON(h.InputSchema, w.InputSchema):
			diffs = append(diffs, fmt.Sprintf("tool %s: inputSchema differs", w.Name))
		case !equalJSON(h.OutputSchema, w.OutputSchema):
			diffs = append(diffs, fmt.Sprintf("tool %s: outputSchema differs", w.Name))
		case !equalJSON(h, &w):
			diffs = append(diffs, fmt.Sprintf("tool %s: title, description, tier or annotations differ", w.Name))
		}
	}
	for _, h := range have {
		if find(want, h.Name) == nil {
			diffs = append(diffs, fmt.Sprintf("tool %s is in the manifest but the plugin does not export it", h.Name))
		}
	}
	if order && len(diffs) == 0 && !equalJSON(have, want) {
		diffs = append(diffs, "tools are in a different order")
	}
	return diffs
}

// decodeLoose decodes a manifest strictly (no unknown fields) without
// validating it.
func decodeLoose(data []byte) (*manifest.Manifest, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m manifest.Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("pluginbuild: manifest: %w", err)
	}
	return &m, nil
}

// equalJSON reports whether a and b encode to the same JSON value; the
// order of object keys does not count.
func equalJSON(a, b any) bool {
	x, err1 := generic(a)
	y, err2 := generic(b)
	return err1 == nil && err2 == nil && reflect.DeepEqual(x, y)
}

func generic(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(b, &out)
	return out, err
}
