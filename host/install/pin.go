package install

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jujutools/juju/internal/filelock"

	"github.com/jujutools/juju/host/core"
	"github.com/jujutools/juju/hostfns/state"
	"github.com/jujutools/juju/internal/installed"
	"github.com/jujutools/juju/internal/manifest"
	"github.com/jujutools/juju/sdk/abi"
)

// lockFile, in the data directory, serialises the lifecycle commands.
const lockFile = ".plugins.lock"

// lockData takes the data directory's lifecycle lock, so that two juju
// plugins commands never interleave (two grants losing one, an install
// checking collisions while another lands). It waits for the holder, saying
// so on note (when not nil), until ctx ends (the owner's Ctrl-C), then
// finishes what an interrupted command left (sweep), so every lifecycle
// command starts from a whole installed set.
func lockData(ctx context.Context, data string, note io.Writer) (func(), error) {
	if err := os.MkdirAll(data, 0o700); err != nil {
		return nil, err
	}
	unlock, err := filelock.LockContext(ctx, filepath.Join(data, lockFile), func() {
		if note != nil {
			fmt.Fprintln(note, "waiting for another juju plugins command to finish… (Ctrl-C to stop)")
		}
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w while waiting for another juju plugins command; nothing changed", ctx.Err())
		}
		return nil, err
	}
	sweep(data)
	return unlock, nil
}

// Errors of the lifecycle commands.
var (
	ErrNotInstalled = errors.New("no installed plugin has that name")
	ErrCorePlugin   = errors.New("core plugins are part of juju: they cannot be installed over, removed, granted or revoked")
	ErrNotAsked     = errors.New("the plugin's manifest does not ask for the capability")
	ErrCollision    = errors.New("tool name collision")
	ErrRefused      = errors.New("plugin refused")
	ErrStale        = errors.New("the manifest does not describe the plugin's wasm")
)

// isCore reports whether name is a core plugin's.
func isCore(name string) bool {
	cores, err := core.Plugins()
	if err != nil {
		return false
	}
	for _, c := range cores {
		if c.Manifest.Name == name {
			return true
		}
	}
	return false
}

// installedDir returns the folder of the installed plugin name, refusing
// core plugins and names that are not installed.
func installedDir(data, name string) (string, error) {
	if isCore(name) {
		// A folder of a core plugin's name in the plugins folder (put
		// there by hand, or installed before juju had that core plugin)
		// is listed, refused: say how it goes, since remove cannot take
		// the name without taking the core plugin's state with it.
		if fi, err := os.Stat(filepath.Join(installed.PluginsDir(data), name)); err == nil && fi.IsDir() {
			return "", fmt.Errorf("%s: %w; the folder %s, which juju refuses to load, is not the core plugin: delete it yourself",
				name, ErrCorePlugin, filepath.Join(installed.PluginsDir(data), name))
		}
		return "", fmt.Errorf("%s: %w", name, ErrCorePlugin)
	}
	if name == "" || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return "", fmt.Errorf("%q: %w", name, ErrNotInstalled)
	}
	dir := filepath.Join(installed.PluginsDir(data), name)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%s: %w (juju plugins list shows them)", name, ErrNotInstalled)
	}
	return dir, nil
}

// Change is what a grant or revoke did.
type Change struct {
	Name    string           `json:"name"`
	Granted []abi.Capability `json:"granted"` // every capability held now
	Changed []abi.Capability `json:"changed"` // those this command added or took away
}

// Grant gives the installed plugin name the capabilities caps, which its
// manifest must ask for ("all" grants everything it asks for). The plugin
// must pass its pin check; the next juju start (or the next call of a
// running one, see docs/SECURITY.md) sees the new grants. While another
// lifecycle command holds the lock it waits, saying so on note, until ctx
// ends; so do Revoke, Remove and Install.
func Grant(ctx context.Context, data, name string, caps []string, note io.Writer) (*Change, error) {
	return regrant(ctx, data, name, caps, true, note)
}

// Revoke takes the capabilities caps away from the installed plugin name
// ("all" takes every one).
func Revoke(ctx context.Context, data, name string, caps []string, note io.Writer) (*Change, error) {
	return regrant(ctx, data, name, caps, false, note)
}

func regrant(ctx context.Context, data, name string, caps []string, add bool, note io.Writer) (*Change, error) {
	unlock, err := lockData(ctx, data, note)
	if err != nil {
		return nil, err
	}
	defer unlock()
	dir, err := installedDir(data, name)
	if err != nil {
		return nil, err
	}
	in, err := installed.ReadInstalled(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if add {
		// A plugin whose wasm fails its pin is refused: it would hold
		// nothing granted now, and its reinstall keeps no grant of it.
		if err := in.CheckWasm(); err != nil {
			return nil, fmt.Errorf("%s is refused, and a grant would give it nothing: %w", name, err)
		}
	}
	want, err := ParseCapabilities(caps, in.Manifest)
	if err != nil {
		return nil, err
	}
	ch := &Change{Name: name, Changed: []abi.Capability{}}
	held := slices.Clone(in.Granted)
	for _, c := range want {
		has := slices.Contains(held, c)
		switch {
		case add && !has:
			held = append(held, c)
			ch.Changed = append(ch.Changed, c)
		case !add && has:
			held = slices.DeleteFunc(held, func(x abi.Capability) bool { return x == c })
			ch.Changed = append(ch.Changed, c)
		}
	}
	ch.Granted = ordered(held, in.Manifest)
	pin := in.Pin
	pin.Granted = ch.Granted
	if err := installed.WriteGrants(dir, pin); err != nil {
		return nil, err
	}
	return ch, nil
}

// CheckCapabilityNames checks that each of names (commas separating
// several) is a capability juju knows, or "all", before any plugin is read.
func CheckCapabilityNames(names []string) error {
	for _, n := range names {
		for _, part := range strings.Split(n, ",") {
			part = strings.TrimSpace(part)
			if part != "" && part != "all" && !abi.Capability(part).Known() {
				return fmt.Errorf("unknown capability %q (juju knows %s)", part, knownList())
			}
		}
	}
	return nil
}

// ParseCapabilities turns capability names into capabilities the manifest
// asks for; "all" stands for every one of them.
func ParseCapabilities(names []string, m *manifest.Manifest) ([]abi.Capability, error) {
	asked := m.CapabilitySet()
	var out []abi.Capability
	for _, n := range names {
		for _, part := range strings.Split(n, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			if part == "all" {
				out = append(out, m.Capabilities...)
				continue
			}
			c := abi.Capability(part)
			if !c.Known() {
				return nil, fmt.Errorf("unknown capability %q (juju knows %s)", part, knownList())
			}
			if !asked[c] {
				return nil, fmt.Errorf("%s: %w %s (it asks for %s)", m.Name, ErrNotAsked, c, capList(m.Capabilities))
			}
			out = append(out, c)
		}
	}
	return ordered(out, m), nil
}

// ordered returns the distinct capabilities of cs in the manifest's order.
func ordered(cs []abi.Capability, m *manifest.Manifest) []abi.Capability {
	out := []abi.Capability{}
	for _, c := range m.Capabilities {
		if slices.Contains(cs, c) {
			out = append(out, c)
		}
	}
	return out
}

func knownList() string {
	var names []string
	for _, c := range abi.Capabilities {
		names = append(names, string(c.Name))
	}
	return strings.Join(names, ", ")
}

func capList(cs []abi.Capability) string {
	if len(cs) == 0 {
		return "nothing"
	}
	var names []string
	for _, c := range cs {
		names = append(names, string(c))
	}
	return strings.Join(names, ", ")
}

// Words returns the owner's words for capability c.
func Words(c abi.Capability) string {
	for _, k := range abi.Capabilities {
		if k.Name == c {
			return k.Words
		}
	}
	return string(c)
}

// Removed is what a remove did beyond the plugin's folder.
type Removed struct {
	// StateRemoved is how many workspaces held state of the plugin, now
	// deleted.
	StateRemoved int
	// CachePrunedBytes is the compiled code the remove took from the cache.
	CachePrunedBytes int64
}

// Remove deletes the installed plugin name. The folder is first renamed
// out of the plugins folder, so a juju starting meanwhile never loads half
// a plugin. Its state then goes from each of the workspace state folders
// workspaces (config.Dirs.Workspaces): a plugin installed under its name
// later must not read the tokens and data this one kept (and would not:
// its install has another state space). Its compiled code then goes from
// the cache in cacheDir (when given). A state folder that cannot be
// deleted is an error, after the plugin is removed.
func Remove(ctx context.Context, data, cacheDir string, workspaces []string, name string, note io.Writer) (Removed, error) {
	var r Removed
	unlock, err := lockData(ctx, data, note)
	if err != nil {
		return r, err
	}
	defer unlock()
	dir, err := installedDir(data, name)
	if err != nil {
		return r, err
	}
	trash, err := os.MkdirTemp(data, ".remove-*")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(trash)
	if err := os.Rename(dir, filepath.Join(trash, name)); err != nil {
		return r, err
	}
	r.StateRemoved, err = state.Remove(workspaces, name)
	if err != nil {
		return r, fmt.Errorf("%s is removed, but some of its state could not be deleted: %v; delete that folder by hand", name, err)
	}
	if pr, err := PruneCache(data, cacheDir); err == nil {
		r.CachePrunedBytes = pr.RemovedBytes
	} // else the plugin is removed; its code stays until the next prune
	return r, nil
}
