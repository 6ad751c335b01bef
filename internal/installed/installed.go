// Package installed is the format of an installed plugin in the owner's
// data directory: its folder (manifest.json, the wasm, grants.json), the
// pin taken at install and the grants, and how the installed set is read
// and checked. The host loads from it and `juju plugins` writes it; it
// imports nothing of either.
package installed

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/jujutools/juju/internal/atomicfile"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

// GrantsFile holds, beside an installed plugin's manifest, the capabilities
// the owner granted it and the pin taken at install: the sha256 of the wasm
// and of the manifest. Only the owner writes it (juju plugins
// install/grant/revoke); no tool can.
const GrantsFile = "grants.json"

// Grants is the content of GrantsFile.
type Grants struct {
	Granted []abi.Capability `json:"granted"`
	// SHA256 pins the wasm: the manifest's wasm.sha256 when it was installed.
	SHA256 string `json:"sha256"`
	// ManifestSHA256 pins the manifest file itself, so that a manifest
	// edited after install (another tool, more capabilities) is refused.
	ManifestSHA256 string `json:"manifestSha256"`
	// Space names the plugin's state (hostfns/state): made at random when
	// the plugin is first installed, carried by its updates, gone with its
	// remove. A plugin installed under the same name after a remove gets a
	// new one, so it never reads the state of the one removed, even where
	// that state outlived the remove. Empty in a pin written before juju
	// kept it: such a plugin keeps its state in the folder of its name.
	Space string `json:"space,omitempty"`
}

// errBadSpace refuses a pin whose state space NewSpace could not have made:
// the space names a folder.
var errBadSpace = errors.New("reading grants: the state space is not 16 hex digits")

// validSpace reports a space NewSpace could have made: it names a folder.
func validSpace(s string) bool {
	return len(s) == 16 && strings.Trim(s, "0123456789abcdef") == ""
}

// NewSpace returns a new state space for a plugin's first install.
func NewSpace() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// PluginsDir is where installed plugins live inside the data directory.
func PluginsDir(data string) string { return filepath.Join(data, "plugins") }

// Errors an installed plugin is refused with; `juju plugins list` and
// `juju plugins verify` show them.
var (
	ErrNotPinned      = errors.New("the plugin has no pin (grants.json with its sha256): reinstall it with juju plugins install")
	ErrManifestPin    = errors.New("manifest.json changed since the plugin was installed: reinstall it with juju plugins install")
	ErrWasmPin        = errors.New("the manifest's wasm.sha256 is not the one pinned at install: reinstall it with juju plugins install")
	ErrWasmMismatch   = errors.New("the wasm file does not match its pinned sha256 (it was replaced or damaged): reinstall the plugin with juju plugins install")
	ErrFolderMismatch = errors.New("folder name and plugin name differ")
)

// Installed is one installed plugin as read from its folder.
type Installed struct {
	Dir      string
	Manifest *manifest.Manifest
	Pin      Grants           // the grants file as written
	Granted  []abi.Capability // the grants the manifest asks for; others are ignored
}

// WasmPath is the plugin's wasm file.
func (in *Installed) WasmPath() string { return filepath.Join(in.Dir, in.Manifest.Wasm.File) }

// ReadInstalled reads and checks an installed plugin's folder: the manifest
// must be valid, named like its folder and byte for byte the one pinned at
// install, and its wasm.sha256 the pinned one. The wasm itself is checked by
// CheckWasm. When only the pin is wrong the result is returned with the error,
// so the plugin can still be shown by name and version.
func ReadInstalled(dir string) (*Installed, error) {
	data, err := os.ReadFile(filepath.Join(dir, manifest.FileName))
	if err != nil {
		return nil, fmt.Errorf("reading manifest: %w", err)
	}
	m, err := manifest.Decode(data)
	if err != nil {
		return nil, err
	}
	in := &Installed{Dir: dir, Manifest: m}
	if filepath.Base(dir) != m.Name {
		return in, fmt.Errorf("%w: folder %s holds plugin %q", ErrFolderMismatch, filepath.Base(dir), m.Name)
	}
	if in.Pin, err = ReadPin(dir); err != nil {
		return in, err
	}
	if Hash(data) != in.Pin.ManifestSHA256 {
		return in, ErrManifestPin
	}
	if m.Wasm.SHA256 != in.Pin.SHA256 {
		return in, ErrWasmPin
	}
	asked := m.CapabilitySet()
	for _, c := range in.Pin.Granted {
		if asked[c] { // a grant the manifest does not ask for is ignored
			in.Granted = append(in.Granted, c)
		}
	}
	return in, nil
}

// ReadPin reads dir's grants file alone: the pin and the grants as
// written, unchecked against the manifest.
func ReadPin(dir string) (Grants, error) {
	var g Grants
	data, err := os.ReadFile(filepath.Join(dir, GrantsFile))
	if errors.Is(err, os.ErrNotExist) {
		return g, ErrNotPinned
	}
	if err != nil {
		return g, fmt.Errorf("reading grants: %w", err)
	}
	if err := json.Unmarshal(data, &g); err != nil {
		return Grants{}, fmt.Errorf("reading grants: %w", err)
	}
	if g.SHA256 == "" || g.ManifestSHA256 == "" {
		return g, ErrNotPinned
	}
	if g.Space != "" && !validSpace(g.Space) {
		return Grants{}, fmt.Errorf("%w: %q", errBadSpace, g.Space)
	}
	return g, nil
}

// CheckWasm hashes the plugin's wasm file and compares it with the pin.
func (in *Installed) CheckWasm() error {
	f, err := os.Open(in.WasmPath())
	if err != nil {
		return fmt.Errorf("reading wasm: %w", err)
	}
	defer f.Close()
	sum := sha256.New()
	if _, err := io.Copy(sum, f); err != nil {
		return fmt.Errorf("reading wasm: %w", err)
	}
	if hex.EncodeToString(sum.Sum(nil)) != in.Pin.SHA256 {
		return ErrWasmMismatch
	}
	return nil
}

// Hash is the lowercase hex sha256 of data, as pins and manifests hold it.
func Hash(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// WriteGrants replaces dir's grants file atomically (a new file renamed
// over the old one, so a running server sees every change).
func WriteGrants(dir string, g Grants) error {
	if g.Granted == nil {
		g.Granted = []abi.Capability{}
	}
	data, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, GrantsFile), append(data, '\n'), 0o600, atomicfile.Options{})
}
