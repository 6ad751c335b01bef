package host

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/jujutools/juju/internal/installed"
	"github.com/jujutools/juju/internal/manifest"
)

// loadInstalled reads every installed plugin's manifest, pin and grants, and
// hashes its wasm against the pin. A broken plugin is kept with its error so
// `juju plugins list` can show it; it serves nothing. The wasm is hashed
// again when it compiles, so swapping it later is caught too. Folders whose
// name starts with a dot are never plugins. A plugin of prev (by folder
// name) that was serving and whose folder still holds the version it was
// loaded from (grants.json pins the same manifest and wasm) is kept as it
// is, compiled instances and all. The pin, not the folder's identity, says
// so: a folder removed and installed again may get the inode of the one it
// replaces, and the old code must not serve under the new manifest's grants.
func (h *Host) loadInstalled(prev map[string]*Loaded) []*Loaded {
	root := installed.PluginsDir(h.cfg.Dirs.Data)
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
		if p := prev[e.Name()]; p != nil && p.Err == nil && p.pin.holds(dir) {
			out = append(out, p)
			continue
		}
		out = append(out, h.loadInstalledDir(dir))
	}
	return out
}

// loadInstalledDir loads the installed plugin in dir.
func (h *Host) loadInstalledDir(dir string) *Loaded {
	l := &Loaded{Source: SourceInstalled, Dir: dir}
	inst, err := installed.ReadInstalled(dir)
	if err == nil {
		err = inst.CheckWasm()
	}
	if err != nil {
		l.Err = err
		m := &manifest.Manifest{Name: filepath.Base(dir)}
		if inst != nil {
			// Shown by its folder's name, which remove, verify and info
			// take: a folder holding another plugin's manifest (a copy
			// put there by hand) would otherwise be listed under a name
			// whose remove deletes that other plugin, or a core one's.
			shown := *inst.Manifest
			shown.Name = filepath.Base(dir)
			m = &shown
		}
		l.Plugin = h.runtime.Load(m, nil, nil, nil)
		h.log.Warn("installed plugin refused", "dir", dir, "err", err)
		return l
	}
	l.Granted = inst.Granted
	l.pin = newPinWatch(dir, inst.Pin)
	wasmPath := inst.WasmPath()
	l.Plugin = h.runtime.Load(inst.Manifest, func() ([]byte, error) { return os.ReadFile(wasmPath) }, inst.Granted, h.reload.fns)
	l.Plugin.SetSpace(inst.Pin.Space)
	return l
}

// pinWatch follows an installed plugin's grants.json while juju runs, so
// that `juju plugins grant` and `revoke` apply to the next call. Every write
// of the file replaces it (a new inode), so comparing the file's identity
// and modification time finds every change for the price of one stat.
type pinWatch struct {
	dir string
	// manifest and wasm are the sha256s pinned for the version loaded: a
	// grants.json pinning others belongs to another version. space is its
	// install's state space: the same files installed again after a remove
	// are another install, whose state is not this one's.
	manifest, wasm, space string
	mu                    sync.Mutex
	last                  os.FileInfo
}

func newPinWatch(dir string, pin installed.Grants) *pinWatch {
	fi, _ := os.Stat(filepath.Join(dir, installed.GrantsFile))
	return &pinWatch{dir: dir, manifest: pin.ManifestSHA256, wasm: pin.SHA256, space: pin.Space, last: fi}
}

// pins reports whether g pins the version and install loaded.
func (w *pinWatch) pins(g installed.Grants) bool {
	return g.ManifestSHA256 == w.manifest && g.SHA256 == w.wasm && g.Space == w.space
}

// holds reports whether dir's grants.json pins the version loaded (false
// for a plugin loaded without a pin).
func (w *pinWatch) holds(dir string) bool {
	if w == nil {
		return false
	}
	g, err := installed.ReadPin(dir)
	return err == nil && w.pins(g)
}

// errReplaced is why a plugin whose folder holds another version now
// holds no capability until the next reload replaces it.
var errReplaced = errors.New("its folder holds another version now")

// refreshGrants re-reads the plugin's grants when grants.json changed since
// the last look. A plugin whose folder no longer passes its checks (its
// manifest edited in place), or holds another version (installed again
// since it was loaded), keeps its tools until the next reload but holds no
// capability any more: another version's grants are never this one's.
func (l *Loaded) refreshGrants(log *slog.Logger) {
	w := l.pin
	if w == nil {
		return
	}
	fi, _ := os.Stat(filepath.Join(w.dir, installed.GrantsFile))
	w.mu.Lock()
	defer w.mu.Unlock()
	if sameFile(fi, w.last) {
		return
	}
	w.last = fi
	in, err := installed.ReadInstalled(w.dir)
	if err == nil && !w.pins(in.Pin) {
		err = errReplaced
	}
	if err != nil {
		l.SetGrants(nil)
		log.Warn("installed plugin changed; it holds no capability until it is loaded again", "plugin", l.Name(), "err", err)
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
