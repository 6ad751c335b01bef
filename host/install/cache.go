package install

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jujutools/juju/host/core"
	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/internal/installed"
)

// PruneCache removes from the compilation cache the compiled code that no
// core plugin and no installed plugin uses any more (every build of a
// plugin adds its own, tens of megabytes for a Go one). Install and Remove
// call it, under the lifecycle lock; it never fails them.
func PruneCache(data, cache string) (plugin.CachePrune, error) {
	var inUse [][]byte
	cores, err := core.Plugins()
	if err != nil && !errors.Is(err, core.ErrNotBuilt) {
		return plugin.CachePrune{}, err
	}
	defer func() {
		for _, c := range cores {
			c.Release() // their keys are known: let the bytes leave memory
		}
	}()
	for _, c := range cores {
		w, err := c.Wasm()
		if err != nil {
			return plugin.CachePrune{}, err
		}
		inUse = append(inUse, w)
	}
	entries, _ := os.ReadDir(installed.PluginsDir(data))
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		in, err := installed.ReadInstalled(filepath.Join(installed.PluginsDir(data), e.Name()))
		if in == nil || in.Manifest == nil {
			continue
		}
		_ = err // a plugin refused for its pin still keeps its code: the owner may reinstall it
		if w, err := os.ReadFile(in.WasmPath()); err == nil {
			inUse = append(inUse, w)
		}
	}
	return plugin.PruneCache(cache, inUse, time.Now())
}
