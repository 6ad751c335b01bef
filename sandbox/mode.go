package sandbox

import (
	"errors"
	"fmt"
	"strings"
)

// Mode is the owner's command sandbox setting (SPEC §7).
type Mode string

// The sandbox settings.
const (
	Off     Mode = "off"     // commands run unconfined unless a call asks for the sandbox
	Prefer  Mode = "prefer"  // confined when a sandbox works here, else unconfined and said so
	Require Mode = "require" // confined, or not run at all
)

// Modes lists the sandbox settings.
var Modes = []Mode{Off, Prefer, Require}

// ErrMode says a sandbox setting is not one of Modes.
var ErrMode = errors.New("unknown sandbox setting")

// Valid reports whether m is one of Modes.
func (m Mode) Valid() bool {
	for _, v := range Modes {
		if m == v {
			return true
		}
	}
	return false
}

// Confines reports whether commands are confined by default under m ("" is
// off).
func (m Mode) Confines() bool { return m == Prefer || m == Require }

// ParseMode checks a sandbox setting given as text.
func ParseMode(s string) (Mode, error) {
	m := Mode(s)
	if !m.Valid() {
		return "", fmt.Errorf("%w: %q must be one of %s", ErrMode, s, ModeList())
	}
	return m, nil
}

// ModeList names the settings, for messages.
func ModeList() string {
	parts := make([]string, len(Modes))
	for i, m := range Modes {
		parts[i] = string(m)
	}
	return strings.Join(parts, ", ")
}
