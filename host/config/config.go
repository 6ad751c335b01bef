package config

import (
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

// Sandbox is the command sandbox setting (SPEC §7).
type Sandbox string

// The sandbox settings.
const (
	SandboxOff     Sandbox = "off"
	SandboxPrefer  Sandbox = "prefer"
	SandboxRequire Sandbox = "require"
)

// Sandboxes lists the sandbox settings.
var Sandboxes = []Sandbox{SandboxOff, SandboxPrefer, SandboxRequire}

// Valid reports whether s is one of Sandboxes.
func (s Sandbox) Valid() bool { return oneOf(s, Sandboxes) }

// ParseSandbox checks a sandbox setting given as text.
func ParseSandbox(s string) (Sandbox, error) {
	v := Sandbox(s)
	if !v.Valid() {
		return "", fmt.Errorf("%w: sandbox %q must be one of %s", ErrInvalid, s, list(Sandboxes))
	}
	return v, nil
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
