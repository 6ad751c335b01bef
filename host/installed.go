package host

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/jujutools/juju/hostfns"
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
	errFolderMismatch = errors.New("folder name and plugin name differ")
)

// loadInstalled reads every installed plugin's manifest, pin and grants, and
// hashes its wasm against the pin. A broken plugin is kept with its error so
// `juju plugins list` can show it; it serves nothing. The wasm is hashed
// again when it compiles, so swapping it later is caught too. Folders whose
// name starts with a dot are never plugins.
func (h *Host) loadInstalled(fns []hostfns.Func) []*Loaded {
	root := PluginsDir(h.cfg.Dirs.Data)
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var out []*Loaded
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := filepath.Join(root, e.Name())
		l := &Loaded{Source: SourceInstalled, Dir: dir}
		inst, err := ReadInstalled(dir)
		if err == nil {
			err = inst.CheckWasm()
		}
		if err != nil {
			l.Err = err
			m := &manifest.Manifest{Name: e.Name()}
			if inst != nil {
				m = inst.Manifest
			}
			l.Plugin = h.runtime.Load(m, nil, nil, nil)
			h.log.Warn("installed plugin refused", "dir", dir, "err", err)
			out = append(out, l)
			continue
		}
		l.Granted = inst.Granted
		l.pin = newPinWatch(dir)
		wasmPath := inst.WasmPath()
		l.Plugin = h.runtime.Load(inst.Manifest, func() ([]byte, error) { return os.ReadFile(wasmPath) }, inst.Granted, fns)
		out = append(out, l)
	}
	return out
}

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
		return in, fmt.Errorf("%w: folder %s holds plugin %q", errFolderMismatch, filepath.Base(dir), m.Name)
	}
	g, err := os.ReadFile(filepath.Join(dir, GrantsFile))
	if errors.Is(err, os.ErrNotExist) {
		return in, ErrNotPinned
	}
	if err != nil {
		return in, fmt.Errorf("reading grants: %w", err)
	}
	if err := json.Unmarshal(g, &in.Pin); err != nil {
		return in, fmt.Errorf("reading grants: %w", err)
	}
	if in.Pin.SHA256 == "" || in.Pin.ManifestSHA256 == "" {
		return in, ErrNotPinned
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

// pinWatch follows an installed plugin's grants.json while juju runs, so
// that `juju plugins grant` and `revoke` apply to the next call. Every write
// of the file replaces it (a new inode), so comparing the file's identity
// and modification time finds every change for the price of one stat.
type pinWatch struct {
	dir  string
	mu   sync.Mutex
	last os.FileInfo
}

func newPinWatch(dir string) *pinWatch {
	fi, _ := os.Stat(filepath.Join(dir, GrantsFile))
	return &pinWatch{dir: dir, last: fi}
}

// refreshGrants re-reads the plugin's grants when grants.json changed since
// the last look. A plugin whose folder no longer passes its checks (removed,
// or its manifest edited) keeps its tools until juju restarts but holds no
// capability any more.
func (l *Loaded) refreshGrants(log *slog.Logger) {
	w := l.pin
	if w == nil {
		return
	}
	fi, _ := os.Stat(filepath.Join(w.dir, GrantsFile))
	w.mu.Lock()
	defer w.mu.Unlock()
	if sameFile(fi, w.last) {
		return
	}
	w.last = fi
	in, err := ReadInstalled(w.dir)
	if err != nil {
		l.SetGrants(nil)
		log.Warn("installed plugin changed; it holds no capability until juju restarts", "plugin", l.Name(), "err", err)
		return
	}
	l.SetGrants(in.Granted)
	log.Info("plugin grants changed", "plugin", l.Name(), "granted", in.Granted)
}

func sameFile(a, b os.FileInfo) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return os.SameFile(a, b) && a.ModTime().Equal(b.ModTime()) && a.Size() == b.Size()
}
