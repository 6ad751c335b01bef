package host

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/jujutools/juju/host/manifest"
	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// GrantsFile holds, beside an installed plugin's manifest, the capabilities
// the owner granted it. Only the owner writes it (juju plugins install/grant).
const GrantsFile = "grants.json"

// Grants is the content of GrantsFile.
type Grants struct {
	Granted []abi.Capability `json:"granted"`
}

// PluginsDir is where installed plugins live inside the data directory.
func PluginsDir(data string) string { return filepath.Join(data, "plugins") }

// loadInstalled reads every installed plugin's manifest and grants. A broken
// plugin is kept with its error so `juju plugins list` can show it; it
// serves nothing. The wasm is read and its sha256 checked when it compiles.
func (h *Host) loadInstalled(fns []hostfns.Func) []*Loaded {
	root := PluginsDir(h.cfg.Dirs.Data)
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var out []*Loaded
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, e.Name())
		l := &Loaded{Source: SourceInstalled, Dir: dir}
		m, grants, err := readInstalled(dir)
		if err != nil {
			l.Err = err
			l.Plugin = h.runtime.Load(&manifest.Manifest{Name: e.Name()}, nil, nil, nil)
			h.log.Warn("installed plugin refused", "dir", dir, "err", err)
			out = append(out, l)
			continue
		}
		l.Granted = grants
		wasmPath := filepath.Join(dir, m.Wasm.File)
		l.Plugin = h.runtime.Load(m, func() ([]byte, error) { return os.ReadFile(wasmPath) }, grants, fns)
		out = append(out, l)
	}
	return out
}

func readInstalled(dir string) (*manifest.Manifest, []abi.Capability, error) {
	data, err := os.ReadFile(filepath.Join(dir, manifest.FileName))
	if err != nil {
		return nil, nil, fmt.Errorf("reading manifest: %w", err)
	}
	m, err := manifest.Decode(data)
	if err != nil {
		return nil, nil, err
	}
	if filepath.Base(dir) != m.Name {
		return nil, nil, fmt.Errorf("folder %s holds plugin %q", filepath.Base(dir), m.Name)
	}
	var g Grants
	if data, err := os.ReadFile(filepath.Join(dir, GrantsFile)); err == nil {
		if err := json.Unmarshal(data, &g); err != nil {
			return nil, nil, fmt.Errorf("reading grants: %w", err)
		}
	}
	asked := m.CapabilitySet()
	var granted []abi.Capability
	for _, c := range g.Granted {
		if asked[c] { // a grant the manifest does not ask for is ignored
			granted = append(granted, c)
		}
	}
	return m, granted, nil
}
