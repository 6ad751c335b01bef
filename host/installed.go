package host

import (
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
// name) that was serving and whose folder is still the same one (an install
// or update puts a new folder in place) is kept as it is, compiled
// instances and all.
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
		folder, _ := os.Stat(dir)
		if p := prev[e.Name()]; p != nil && p.Err == nil && folder != nil && p.folder != nil && os.SameFile(folder, p.folder) {
			out = append(out, p)
			continue
		}
		out = append(out, h.loadInstalledDir(dir, folder))
	}
	return out
}

// loadInstalledDir loads the installed plugin in dir, whose folder's
// identity is folder.
func (h *Host) loadInstalledDir(dir string, folder os.FileInfo) *Loaded {
	l := &Loaded{Source: SourceInstalled, Dir: dir, folder: folder}
	inst, err := installed.ReadInstalled(dir)
	if err == nil {
		err = inst.CheckWasm()
	}
	if err != nil {
		l.Err = err
		m := &manifest.Manifest{Name: filepath.Base(dir)}
		if inst != nil {
			m = inst.Manifest
		}
		l.Plugin = h.runtime.Load(m, nil, nil, nil)
		h.log.Warn("installed plugin refused", "dir", dir, "err", err)
		return l
	}
	l.Granted = inst.Granted
	l.pin = newPinWatch(dir)
	wasmPath := inst.WasmPath()
	l.Plugin = h.runtime.Load(inst.Manifest, func() ([]byte, error) { return os.ReadFile(wasmPath) }, inst.Granted, h.reload.fns)
	return l
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
	fi, _ := os.Stat(filepath.Join(dir, installed.GrantsFile))
	return &pinWatch{dir: dir, last: fi}
}

// refreshGrants re-reads the plugin's grants when grants.json changed since
// the last look. A plugin whose folder no longer passes its checks (its
// manifest edited in place) keeps its tools until the next reload but holds
// no capability any more.
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
