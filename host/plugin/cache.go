package plugin

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/jujutools/juju/internal/wasmstop"
)

// wazero keeps compiled code in CacheDir/wazero-<version>-<arch>-<os>/,
// one file per module, named by the hex sha256 of the module's ID, the
// bytes "WAZEVO" and the CPU's feature flags as eight little-endian bytes;
// the ID is the sha256 of the wasm and one byte, whether the runtime closes
// modules when their context ends (juju registers no function listeners,
// which would add to it). That is wazero v1.12's layout; cacheNames
// mirrors it, and PruneCache checks it still holds before it deletes
// anything.

// cacheMagic is wazero's mark in the key of its compiled-code files.
const cacheMagic = "WAZEVO"

// CachePruneGrace is the age under which a cache file is never pruned: it
// may belong to a compilation in progress, or one just made by another juju
// process for a plugin being installed.
const CachePruneGrace = time.Hour

// cacheSmall is the size under which an entry no known module accounts for
// is kept: the Extism kernel that every plugin links (a few kilobytes of
// wasm, whose bytes juju cannot see) compiles to a file this small, while a
// Go plugin compiles to tens of megabytes.
const cacheSmall = 1 << 20

// cacheNames returns every name wazero may give the compiled code of wasm
// in its cache folder. juju compiles a module that is not instrumented
// already as wasmstop.Instrument makes it when it runs directly
// (Plugin.instrument), and otherwise, or when Instrument refuses it, with
// its tables bounded (wasmstop.BoundTables): the names of those bytes are
// among them.
func cacheNames(wasm []byte) []string {
	names := idNames(wasm)
	if wasmstop.Marked(wasm) {
		return names
	}
	imports, _, err := ModuleInfo(wasm)
	if err != nil {
		return names
	}
	var out []byte
	direct := runsDirect(moduleABI(imports), imports)
	if direct {
		out, err = wasmstop.Instrument(wasm)
	}
	if !direct || err != nil {
		out, err = wasmstop.BoundTables(wasm)
	}
	if err == nil && !bytes.Equal(out, wasm) {
		names = append(names, idNames(out)...)
	}
	return names
}

// idNames returns the names wazero may give the compiled code of exactly
// these bytes. The CPU's feature flags are few (three bits on amd64, one
// on arm64), so every combination is tried, with both values of the
// context byte.
func idNames(wasm []byte) []string {
	h := sha256.New()
	h.Write(wasm)
	state, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return nil
	}
	var names []string
	for _, closeOnDone := range []byte{0, 1} {
		idh := sha256.New()
		if idh.(encoding.BinaryUnmarshaler).UnmarshalBinary(state) != nil {
			return nil
		}
		idh.Write([]byte{closeOnDone})
		id := idh.Sum(nil)
		for cpu := range uint64(8) {
			k := sha256.New()
			k.Write(id)
			k.Write([]byte(cacheMagic))
			k.Write(binary.LittleEndian.AppendUint64(nil, cpu))
			names = append(names, hex.EncodeToString(k.Sum(nil)))
		}
	}
	return names
}

// wazeroVersion is the version wazero names its cache folder with, found
// as wazero finds it (the module's version in the build information).
func wazeroVersion() string {
	v := ""
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if strings.Contains(dep.Path, "github.com/tetratelabs/wazero") {
				v = dep.Version
			}
		}
	}
	if v == "" || v == "(devel)" {
		return "dev"
	}
	return v
}

// cacheFolder is the folder of cacheDir where this build's wazero keeps
// compiled code.
func cacheFolder(cacheDir string) string {
	return filepath.Join(cacheDir, "wazero-"+wazeroVersion()+"-"+runtime.GOARCH+"-"+runtime.GOOS)
}

// InCache reports whether cacheDir holds compiled code of wasm: a runtime
// over that cache loads the plugin instead of compiling it.
func InCache(cacheDir string, wasm []byte) bool {
	if cacheDir == "" {
		return false
	}
	dir := cacheFolder(cacheDir)
	for _, n := range cacheNames(wasm) {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			return true
		}
	}
	return false
}

// InCache reports whether the runtime's compilation cache holds the
// plugin's compiled code, so that it loads instead of compiling (an install
// compiles it there). A runtime that compiles in memory, its cache not
// writable, loads nothing from it. It reads and hashes the wasm.
func (p *Plugin) InCache() bool {
	if p.source == nil || p.rt == nil {
		return false
	}
	dir := p.rt.diskCache()
	if dir == "" {
		return false
	}
	wasm, err := p.source()
	if p.releaseWasm != nil {
		defer p.releaseWasm()
	}
	return err == nil && InCache(dir, wasm)
}

// CachePrune is what PruneCache removed and kept.
type CachePrune struct {
	Removed      int   `json:"removed"`      // files
	RemovedBytes int64 `json:"removedBytes"` // their size
	Kept         int   `json:"kept"`
	KeptBytes    int64 `json:"keptBytes"`
	// Unattributed says no module in use was found under its expected
	// name, so the layout is not the one juju knows and only the folders of
	// other wazero versions were pruned.
	Unattributed bool `json:"unattributed,omitempty"`
}

// PruneCache removes from cacheDir the compiled code no module of inUse
// (the wasm of every core and installed plugin) accounts for, and the
// folders other wazero versions left. It keeps files younger than
// CachePruneGrace and small ones (the Extism kernel's). Another juju
// process may be loading a file as it goes: that load fails and compiles
// again, which costs time, not correctness.
func PruneCache(cacheDir string, inUse [][]byte, now time.Time) (CachePrune, error) {
	var res CachePrune
	if cacheDir == "" {
		return res, nil
	}
	current := cacheFolder(cacheDir)
	dirs, err := os.ReadDir(cacheDir)
	if errors.Is(err, os.ErrNotExist) {
		return res, nil
	}
	if err != nil {
		return res, err
	}
	suffix := "-" + runtime.GOARCH + "-" + runtime.GOOS
	for _, d := range dirs {
		p := filepath.Join(cacheDir, d.Name())
		if !d.IsDir() || p == current || !strings.HasPrefix(d.Name(), "wazero-") || !strings.HasSuffix(d.Name(), suffix) {
			continue
		}
		if fi, err := d.Info(); err == nil && now.Sub(fi.ModTime()) < CachePruneGrace {
			continue // a juju of another wazero version, running now
		}
		n, size := treeSize(p)
		if os.RemoveAll(p) == nil {
			res.Removed += n
			res.RemovedBytes += size
		}
	}
	keep := map[string]bool{}
	for _, w := range inUse {
		for _, n := range cacheNames(w) {
			keep[n] = true
		}
	}
	entries, err := os.ReadDir(current)
	if errors.Is(err, os.ErrNotExist) {
		return res, nil
	}
	if err != nil {
		return res, err
	}
	attributed := false
	for _, e := range entries {
		attributed = attributed || keep[e.Name()]
	}
	res.Unattributed = !attributed && len(entries) > 0 && len(inUse) > 0
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		stale := attributed && !keep[e.Name()] && fi.Size() >= cacheSmall && now.Sub(fi.ModTime()) >= CachePruneGrace
		if stale && os.Remove(filepath.Join(current, e.Name())) == nil {
			res.Removed++
			res.RemovedBytes += fi.Size()
			continue
		}
		res.Kept++
		res.KeptBytes += fi.Size()
	}
	return res, nil
}

// treeSize counts the regular files under dir and their bytes.
func treeSize(dir string) (int, int64) {
	var n int
	var size int64
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n++
				size += fi.Size()
			}
		}
		return nil
	})
	return n, size
}
