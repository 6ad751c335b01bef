// Package core holds juju's core plugins, built by the Makefile from
// plugins/ and embedded in the binary. Each is a folder under wasm/ with a
// manifest (whose sha256 pins the wasm) and the wasm itself.
package core

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"

	"github.com/jujutools/juju/internal/manifest"
)

//go:embed all:wasm
var files embed.FS

// Plugin is one embedded core plugin.
type Plugin struct {
	Manifest *manifest.Manifest
	dir      string
}

// Wasm returns the plugin's wasm bytes: a copy of the embedded data
// (embed.FS.ReadFile copies), which the caller may keep or modify.
func (p Plugin) Wasm() ([]byte, error) {
	return files.ReadFile(path.Join(p.dir, p.Manifest.Wasm.File))
}

// ErrNotBuilt reports a binary built without its core plugins.
var ErrNotBuilt = errors.New("core plugins are not built into this binary; build juju with `make build`")

// Plugins returns the embedded core plugins, sorted by name. Reading them
// decodes manifests only; no wasm is touched.
func Plugins() ([]Plugin, error) {
	entries, err := fs.ReadDir(files, "wasm")
	if err != nil {
		return nil, err
	}
	var out []Plugin
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := path.Join("wasm", e.Name())
		data, err := files.ReadFile(path.Join(dir, manifest.FileName))
		if err != nil {
			return nil, fmt.Errorf("core plugin %s: %w", e.Name(), err)
		}
		m, err := manifest.DecodeEmbedded(data)
		if err != nil {
			return nil, fmt.Errorf("core plugin %s: %w", e.Name(), err)
		}
		out = append(out, Plugin{Manifest: m, dir: dir})
	}
	if len(out) == 0 {
		return nil, ErrNotBuilt
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Manifest.Name < out[j].Manifest.Name })
	return out, nil
}
