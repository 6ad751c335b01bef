package host

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/installed"
)

// reloader follows the installed plugins while the host runs.
type reloader struct {
	mu       sync.Mutex
	stamp    os.FileInfo    // the plugins folder at the last look
	fns      []hostfns.Func // every host function, linked into each plugin loaded
	warm     atomic.Pointer[context.Context]
	retiring sync.WaitGroup
}

// retireGrace bounds how long a replaced or removed plugin waits for the
// calls running in it before it is closed under them.
const retireGrace = time.Minute

// installedStamp is the plugins folder's identity and modification time.
// Every install, update and remove renames a folder in it, which changes
// its modification time: one stat finds them all.
func (h *Host) installedStamp() os.FileInfo {
	fi, _ := os.Stat(installed.PluginsDir(h.cfg.Dirs.Data))
	return fi
}

// Reload brings the catalog in line with the installed plugins when they
// changed since the last look (`juju plugins install`, an update, `juju
// plugins remove`, in another process), and reports whether the catalog
// changed. It costs one stat when nothing changed. New and updated plugins
// are loaded from their manifests (compiled in the background once Warm has
// run, else at their first call); removed and replaced ones are closed once
// the calls running in them end. Grants alone are followed per call (see
// pinWatch). The MCP front calls it before it lists or calls tools.
func (h *Host) Reload() bool {
	stamp := h.installedStamp()
	r := &h.reload
	r.mu.Lock()
	defer r.mu.Unlock()
	if sameFile(stamp, r.stamp) {
		return false
	}
	r.stamp = stamp
	old := h.cat.Load()
	prev := map[string]*Loaded{}
	cat := newCatalog()
	for _, l := range old.plugins {
		if l.Source == SourceInstalled {
			prev[filepath.Base(l.Dir)] = l
		} else {
			cat.add(l, h.log)
		}
	}
	kept := map[*Loaded]bool{}
	var fresh []*Loaded
	for _, l := range h.loadInstalled(prev) {
		if prev[filepath.Base(l.Dir)] == l {
			kept[l] = true
		} else {
			fresh = append(fresh, l)
		}
		cat.add(l, h.log)
	}
	var gone []*Loaded
	for _, l := range prev {
		if !kept[l] {
			gone = append(gone, l)
		}
	}
	if len(fresh) == 0 && len(gone) == 0 {
		return false
	}
	h.cat.Store(cat)
	// An approval covers a call of the plugin the owner was shown (its
	// code, the tool's tier): one installed, updated or removed since
	// spends the approvals given before, as a change of the workspace does.
	h.bumpEpoch()
	for _, l := range fresh {
		h.log.Info("installed plugin loaded", "plugin", l.Name(), "version", l.Manifest.Version, "err", l.Err)
		if ctx := r.warm.Load(); ctx != nil && l.warmsAtStart() {
			go l.Warm(*ctx)
		}
	}
	for _, l := range gone {
		h.log.Info("installed plugin retired", "plugin", l.Name())
		r.retiring.Add(1)
		go func() {
			defer r.retiring.Done()
			ctx, cancel := context.WithTimeout(context.Background(), retireGrace)
			defer cancel()
			if err := l.Retire(ctx); err != nil {
				h.log.Debug("retiring a plugin", "plugin", l.Name(), "err", err)
			}
		}()
	}
	return true
}

// wait waits, until ctx ends, for the retired plugins to close.
func (r *reloader) wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() { r.retiring.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
