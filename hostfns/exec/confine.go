package exec

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/jujutools/juju/sandbox"
	"github.com/jujutools/juju/sdk/abi"
)

// ConfineWrite wraps argv, a host-side program that runs repository code
// (git add and commit: hooks and filters), as a command is confined under
// the owner's sandbox setting: the roots writable, .git's control files
// read-only, no network. Under "require" without a sandbox it refuses.
func (m *Manager) ConfineWrite(cwd string, argv []string) ([]string, *abi.Error) {
	wrapped, _, _, aerr := m.confine(argv, cwd, false, false, false)
	return wrapped, aerr
}

// ConfineRead wraps argv, a host-side program that should only read
// (git status, diff, log …), so that it runs with no writable path and no
// network; visible are folders it must see that may lie under /tmp (a
// private tmpfs in the sandbox). It errs when the owner turned the sandbox
// off or none works here: the caller then runs argv as it is.
func (m *Manager) ConfineRead(cwd string, visible, argv []string) ([]string, error) {
	if m.opts.Sandbox == "" || m.opts.Sandbox == sandbox.Off {
		return nil, fmt.Errorf("%w: the owner's setting is sandbox = off", sandbox.ErrUnavailable)
	}
	if m.opts.Sandboxer == nil {
		return nil, fmt.Errorf("%w: juju was started without one", sandbox.ErrUnavailable)
	}
	p := sandbox.Policy{ReadOnly: append([]string{cwd}, visible...)}
	for _, r := range m.pol.Roots() {
		p.ReadOnly = append(p.ReadOnly, r.Real)
	}
	// The owner's git configuration, wherever HOME is.
	if home, err := os.UserHomeDir(); err == nil {
		p.ReadOnly = append(p.ReadOnly, filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git"))
	}
	wrapped, _, err := m.opts.Sandboxer.Wrap(p, cwd, argv)
	return wrapped, err
}
