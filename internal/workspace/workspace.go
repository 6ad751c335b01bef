// Package workspace opens what juju keeps for one workspace, once, from the
// owner's settings: the path policy over its roots, the change journal, the
// audit log, the pending approvals and the state folder they live in. The
// server (host.New) and the owner's commands (juju rollback, audit,
// approvals) all open a workspace here, so each sees the same policy.
package workspace

import (
	"errors"
	"log/slog"

	"github.com/jujutools/juju/internal/approval"
	"github.com/jujutools/juju/internal/audit"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/journal"
	"github.com/jujutools/juju/internal/policy"
)

// Config is what a workspace is opened from.
type Config struct {
	Roots   []string
	Deny    []string // the owner's extra deny globs
	Secrets []string // the owner's extra secret globs
	Dirs    config.Dirs
	// Files are juju's own files outside Dirs (the config file read, the
	// log file): private to the tools like Dirs, wherever they lie.
	Files  []string
	Logger *slog.Logger
	// Observer, when set, is told of every change the journal commits
	// (the language servers' manager keeps them current with it).
	Observer func([]journal.Touched)
	// Journal bounds the change journal (zero: it keeps everything);
	// AutoPrune makes it prune itself after changes that pass the size
	// limit (a server).
	Journal   journal.Limits
	AutoPrune bool
}

// FromSettings is the Config of the owner's merged settings.
func FromSettings(s config.Settings, dirs config.Dirs, log *slog.Logger) Config {
	return Config{Roots: s.Roots, Deny: s.Deny, Secrets: s.Secrets, Dirs: dirs, Files: OwnFiles(s.ConfigFile), Logger: log, Journal: JournalLimits(s)}
}

// OwnFiles lists those of juju's own files that are named (config file,
// log file): the empty names of the files not used are left out. Each is
// private wherever it lies, even inside a root, where a tool that rewrote
// the config file would lower every setting at the next start.
func OwnFiles(names ...string) []string {
	var out []string
	for _, n := range names {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// JournalLimits are the journal's limits in the owner's settings.
func JournalLimits(s config.Settings) journal.Limits {
	return journal.Limits{MaxAge: s.JournalMaxAge, MaxSize: s.JournalMaxSize}
}

// Workspace is one opened workspace. Its parts are safe for concurrent
// use; Close releases them.
type Workspace struct {
	Policy    *policy.Policy
	Journal   *journal.Journal
	Reads     *journal.ReadLog // files read through the tools, for FILE_CHANGED
	Audit     *audit.Log
	Approvals *approval.Store
	StateDir  string // outside the roots, in the owner's state directory
}

// Open opens the workspace of c. It writes nothing: the state folder and
// the journal's database are made by the first write.
func Open(c Config) (*Workspace, error) {
	log := c.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	pol, err := policy.New(policy.Config{Roots: c.Roots, Deny: c.Deny, Secrets: c.Secrets, Private: append(c.Dirs.All(), c.Files...)})
	if err != nil {
		return nil, err
	}
	state := c.Dirs.Workspace(c.Roots)
	reads := journal.NewReadLog()
	opts := []journal.Option{journal.WithLogger(log), journal.WithReadLog(reads), journal.WithLimits(c.Journal)}
	if c.AutoPrune {
		opts = append(opts, journal.WithAutoPrune())
	}
	// The roots, so that the epoch takes in the changes made through a
	// workspace that overlaps this one (approval.Options.Roots).
	real := make([]string, len(c.Roots))
	for i, r := range c.Roots {
		real[i] = config.RealRoot(r)
	}
	approvals := approval.Open(approval.Dir(state), approval.Options{Roots: real})
	opts = append(opts, journal.WithObserver(func(t []journal.Touched) {
		// Every change the journal commits, whoever makes it, moves the
		// epoch the owner's approvals were given in (approval.Store.Epoch).
		approvals.Bump()
		if c.Observer != nil {
			c.Observer(t)
		}
	}))
	j, err := journal.Open(state, pol, opts...)
	if err != nil {
		pol.Close()
		return nil, err
	}
	return &Workspace{
		Policy:    pol,
		Journal:   j,
		Reads:     reads,
		Audit:     audit.Open(audit.Path(state)),
		Approvals: approvals,
		StateDir:  state,
	}, nil
}

// Close waits for the journal's work after its last answer, and releases
// the roots the policy holds open and the audit log.
func (w *Workspace) Close() error {
	w.Journal.Wait()
	return errors.Join(w.Audit.Close(), w.Policy.Close())
}
