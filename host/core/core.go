// Package core holds juju's core plugins, built by the Makefile from
// plugins/ and embedded in the binary. Each is a folder under wasm/ with a
// manifest (whose sha256 pins the wasm) and the wasm itself, except for a
// plugin that runs another's module (core-exec runs core's): its folder
// holds the manifest alone, which names that module (wasm.module) and pins
// the same sha256.
//
// The build also writes wasmfiles.go (not committed), which embeds each
// plugin's wasm a second time as a string: the linker stores the bytes once,
// and a string reaches them where they lie in the binary's read-only data,
// with no copy (see Plugin.Wasm). It also holds each manifest as a Go value,
// laid out by the linker, so that a start does not decode the JSON.
package core

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"unsafe"

	"github.com/jujutools/juju/internal/manifest"
)

//go:embed all:wasm
var files embed.FS

// Plugin is one embedded core plugin.
type Plugin struct {
	Manifest *manifest.Manifest
	dir      string
}

// wasmFiles maps a plugin's wasm file under wasm/ to its bytes, embedded as
// strings by the generated wasmfiles.go; nil in a binary built without it.
var wasmFiles map[string]string

// builtManifests maps a plugin's folder under wasm/ to its manifest, written
// as a Go value by the generated wasmfiles.go from the manifest.json beside
// it (buildplugins -embed), so that a start does not decode its JSON; nil
// in a binary built without it.
var builtManifests map[string]*manifest.Manifest

// Wasm returns the plugin's wasm bytes. They are the binary's read-only
// data itself, not a copy: the caller must not modify them (a write
// faults). Only a binary built without wasmfiles.go returns a copy.
func (p Plugin) Wasm() ([]byte, error) {
	name := p.wasmFile()
	if s, ok := wasmFiles[name]; ok {
		return unsafe.Slice(unsafe.StringData(s), len(s)), nil
	}
	return files.ReadFile(name)
}

// Release tells the system that the plugin's wasm bytes are not needed in
// memory any more, once they are compiled: their pages leave juju's
// resident set (they are clean pages of the binary's file, which the kernel
// could drop at any time under pressure anyway). Reading the bytes again
// stays correct; they come back from the file.
func (p Plugin) Release() {
	if s, ok := wasmFiles[p.wasmFile()]; ok {
		release(unsafe.Slice(unsafe.StringData(s), len(s)))
	}
}

// wasmFile is the path of the plugin's wasm in files: in the folder of
// the plugin whose module it runs (wasm.module), or else its own.
func (p Plugin) wasmFile() string {
	if mod := p.Manifest.Wasm.Module; mod != "" {
		return path.Join("wasm", mod, p.Manifest.Wasm.File)
	}
	return path.Join(p.dir, p.Manifest.Wasm.File)
}

// pagesWithin returns the whole pages of size pageSize that lie inside b,
// as a subslice of b (empty when b holds none).
func pagesWithin(b []byte, pageSize int) []byte {
	if len(b) == 0 {
		return b
	}
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	ps := uintptr(pageSize)
	lo := (addr+ps-1)&^(ps-1) - addr
	hi := (addr+uintptr(len(b)))&^(ps-1) - addr
	if hi <= lo {
		return b[:0]
	}
	return b[lo:hi]
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
		m, err := builtManifest(dir)
		if err != nil {
			return nil, fmt.Errorf("core plugin %s: %w", e.Name(), err)
		}
		out = append(out, Plugin{Manifest: m, dir: dir})
	}
	if len(out) == 0 {
		return nil, ErrNotBuilt
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Manifest.Name < out[j].Manifest.Name })
	// A plugin that runs another's module pins that module's very bytes.
	for _, p := range out {
		mod := p.Manifest.Wasm.Module
		if mod == "" {
			continue
		}
		i := sort.Search(len(out), func(i int) bool { return out[i].Manifest.Name >= mod })
		if i == len(out) || out[i].Manifest.Name != mod || out[i].Manifest.Wasm.Module != "" ||
			out[i].Manifest.Wasm != (manifest.Wasm{File: p.Manifest.Wasm.File, SHA256: p.Manifest.Wasm.SHA256}) {
			return nil, fmt.Errorf("core plugin %s: it runs the module of %s, which is not built beside it with the same sha256; rebuild juju with `make build`", p.Manifest.Name, mod)
		}
	}
	return out, nil
}

// builtManifest is the manifest of the plugin folder dir: a copy of its Go
// value when the generated file holds one, else decoded from its JSON. Both
// are checked as DecodeEmbedded checks (the schemas were compiled by the
// build).
func builtManifest(dir string) (*manifest.Manifest, error) {
	if v, ok := builtManifests[dir]; ok {
		m := *v
		m.Capabilities = slices.Clone(v.Capabilities)
		m.Tools = slices.Clone(v.Tools)
		m.Discoverers = slices.Clone(v.Discoverers)
		if v.Limits != nil {
			l := *v.Limits
			m.Limits = &l
		}
		if err := manifest.CheckEmbedded(&m); err != nil {
			return nil, err
		}
		return &m, nil
	}
	data, err := files.ReadFile(path.Join(dir, manifest.FileName))
	if err != nil {
		return nil, err
	}
	return manifest.DecodeEmbedded(data)
}
