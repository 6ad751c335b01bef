package main

import (
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/jujutools/juju/host/core"
	"github.com/jujutools/juju/host/install"
	"github.com/jujutools/juju/internal/config"
)

// cachePrunedStamp is the file in the cache directory naming the build
// whose start last pruned the cache (buildCacheKey).
const cachePrunedStamp = "pruned-for"

// pruneCacheOnce removes from the compilation cache the compiled code no
// core or installed plugin of this build uses, once per build: an upgrade
// of juju leaves its predecessor's core plugins there, tens of megabytes a
// build, which only `juju plugins install` and `remove` pruned. A serving
// command calls it once its plugins are compiled, since the prune deletes
// nothing while no file in the cache is one juju knows
// (plugin.PruneCache). It never fails the command.
func pruneCacheOnce(dirs config.Dirs, log *slog.Logger) {
	key := buildCacheKey()
	if key == "" {
		return
	}
	stamp := filepath.Join(dirs.Cache, cachePrunedStamp)
	if b, err := os.ReadFile(stamp); err == nil && string(b) == key {
		return
	}
	pr, err := install.PruneCache(dirs.Data, dirs.Cache)
	if err != nil {
		log.Debug("pruning the compilation cache", "err", err)
		return
	}
	if pr.Removed > 0 {
		log.Info("removed from the compilation cache the code no plugin of this juju uses", "files", pr.Removed, "bytes", pr.RemovedBytes)
	}
	if pr.Unattributed || pr.Kept == 0 {
		return // nothing known was found: try again at the next start
	}
	tmp := stamp + ".tmp"
	if os.WriteFile(tmp, []byte(key), 0o600) == nil {
		if os.Rename(tmp, stamp) != nil {
			os.Remove(tmp)
		}
	}
}

// buildCacheKey names this build's core plugins and runtime: the sha256
// of every core plugin's wasm and the wazero version, hashed ("" when the
// core plugins are not built in).
func buildCacheKey() string {
	cores, err := core.Plugins()
	if err != nil {
		return ""
	}
	h := sha256.New()
	h.Write([]byte(buildVersion(version, readBuildInfo()).Wazero + "\n"))
	for _, c := range cores {
		h.Write([]byte(c.Manifest.Name + " " + c.Manifest.Wasm.SHA256 + "\n"))
	}
	return hex.EncodeToString(h.Sum(nil))
}
