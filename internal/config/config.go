package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
)

// Mode is a trust mode (SPEC §5).
type Mode string

// The trust modes.
const (
	ModeInspect Mode = "inspect" // every E and X call waits for the owner's approval
	ModeEdit    Mode = "edit"    // E applies directly, X needs approval
	ModeTrusted Mode = "trusted" // no juju-side approval; the floor stays
)

// Modes lists the trust modes, strictest first.
var Modes = []Mode{ModeInspect, ModeEdit, ModeTrusted}

// Valid reports whether m is one of Modes.
func (m Mode) Valid() bool { return oneOf(m, Modes) }

// ParseMode checks a trust mode given as text.
func ParseMode(s string) (Mode, error) {
	m := Mode(s)
	if !m.Valid() {
		return "", fmt.Errorf("%w: mode %q must be one of %s", ErrInvalid, s, list(Modes))
	}
	return m, nil
}

func oneOf[T comparable](v T, set []T) bool {
	for _, s := range set {
		if v == s {
			return true
		}
	}
	return false
}

func list[T ~string](set []T) string {
	parts := make([]string, len(set))
	for i, s := range set {
		parts[i] = string(s)
	}
	return strings.Join(parts, ", ")
}

// Dirs are juju's own directories. Nothing in them is ever readable or
// writable through a tool.
type Dirs struct {
	Config string // config.toml, the local token, lsp servers
	State  string // journals, audit, todos, approvals (per workspace)
	Cache  string // the wazero compilation cache
	Data   string // installed plugins
}

// All lists the directories.
func (d Dirs) All() []string { return []string{d.Config, d.State, d.Cache, d.Data} }

// ConfigFile is the default config file's path inside d.Config.
func (d Dirs) ConfigFile() string { return filepath.Join(d.Config, FileName) }

// Workspace returns the folder under the state directory that holds one
// workspace's state (journal, audit, todos, approvals). It is keyed by the
// workspace's roots, each made absolute and resolved through symlinks, so
// every spelling of the same folder shares one state, and it is named after
// the first root to be recognisable. Nothing is created.
func (d Dirs) Workspace(roots []string) string {
	h := sha256.New()
	name := "workspace"
	for i, r := range roots {
		r = RealRoot(r)
		if i == 0 {
			name = filepath.Base(r)
		}
		h.Write([]byte(r))
		h.Write([]byte{0})
	}
	return filepath.Join(d.State, "workspaces", safeName(name)+"-"+hex.EncodeToString(h.Sum(nil))[:12])
}

// RealRoot is a root as the workspace's state knows it: absolute, and
// resolved through symlinks where it can be.
func RealRoot(r string) string {
	if abs, err := filepath.Abs(r); err == nil {
		r = abs
	}
	if real, err := filepath.EvalSymlinks(r); err == nil {
		r = real
	}
	return r
}

// Workspaces returns the folders of every workspace's state (Workspace)
// found under the state directory.
func (d Dirs) Workspaces() []string {
	ws, _ := filepath.Glob(filepath.Join(d.State, "workspaces", "*"))
	return ws
}

// safeName keeps a folder name readable and harmless as a path element.
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	if len(b) == 0 || b[0] == '.' {
		b = append([]byte("w"), b...)
	}
	if len(b) > 40 {
		b = b[:40]
	}
	return string(b)
}
