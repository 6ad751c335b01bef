package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/jujutools/juju/sandbox"
)

// The defaults, used when neither a flag nor the config file sets a value.
const (
	DefaultMode            = ModeEdit
	DefaultSandbox         = sandbox.Prefer
	DefaultAllowWebFetch   = false
	DefaultBackgroundAfter = 50 * time.Second
	DefaultApprovalTimeout = 45 * time.Second
	DefaultJournalMaxAge   = 30 * 24 * time.Hour // the journal keeps a month of changes,
	DefaultJournalMaxSize  = 256 << 20           // or 256 MiB of them, whichever ends first
	DefaultUnloadAfter     = 2 * time.Minute     // a plugin loaded on demand, after its last call
	DefaultStandbyIdle     = 2 * time.Minute     // the sandbox started ahead of the next command, unused
)

// Flags are the settings given on the command line. A nil pointer is a flag
// the owner did not give (whatever its default text in --help); no Roots
// means no --root.
type Flags struct {
	Roots         []string
	Mode          *Mode
	Sandbox       *sandbox.Mode
	AllowWebFetch *bool
}

// Settings are the owner's settings after the merge: every field is set.
// It is a value; Resolve gives it slices of its own, and nothing changes it
// afterwards.
type Settings struct {
	Roots           []string // absolute and clean, in the order given, no duplicates
	Mode            Mode
	Sandbox         sandbox.Mode
	AllowWebFetch   bool
	Deny            []string      // extra deny globs
	Secrets         []string      // extra secret globs
	FetchAllow      []string      // exact host:port pairs exempt from the private-address block
	BackgroundAfter time.Duration // when a running command becomes a background job
	ApprovalTimeout time.Duration // how long a call waits for the owner's approval
	// TerminalApprovalsOnly: the owner is never asked through the client
	// (approvals.askInClient = false), only by `juju approvals`.
	TerminalApprovalsOnly bool
	JournalMaxAge         time.Duration // changes older than this are pruned (0: no limit)
	JournalMaxSize        int64         // bytes of changes the journal keeps (0: no limit)
	UnloadAfter           time.Duration // a plugin loaded on demand is unloaded once unused this long (0: never)
	StandbyIdle           time.Duration // the sandbox started ahead of the next command is let go once unused this long (0: never)
	ConfigFile            string        // the config file that was read; "" when none
}

// Resolve merges flags over the config file over the defaults. Relative
// roots are taken from cwd, and so is the root when none is given. file may
// be nil (no config file). Flag values are checked here; file values were
// checked when it was decoded.
func Resolve(flags Flags, file *File, cwd string) (Settings, error) {
	if file == nil {
		file = &File{}
	}
	if flags.Mode != nil && !flags.Mode.Valid() {
		return Settings{}, fmt.Errorf("%w: --mode %q must be one of %s", ErrInvalid, *flags.Mode, list(Modes))
	}
	if flags.Sandbox != nil && !flags.Sandbox.Valid() {
		return Settings{}, fmt.Errorf("%w: --sandbox %q must be one of %s", ErrInvalid, *flags.Sandbox, sandbox.ModeList())
	}
	s := Settings{
		Mode:            pick(flags.Mode, file.Mode, DefaultMode),
		Sandbox:         pick(flags.Sandbox, file.Sandbox, DefaultSandbox),
		AllowWebFetch:   pick(flags.AllowWebFetch, file.AllowWebFetch, DefaultAllowWebFetch),
		Deny:            slices.Clone(file.Policy.Deny),
		Secrets:         slices.Clone(file.Policy.Secrets),
		FetchAllow:      slices.Clone(file.Fetch.Allow),
		BackgroundAfter: DefaultBackgroundAfter,
		ConfigFile:      file.Path,
	}
	if ms := file.Exec.BackgroundAfterMs; ms != nil {
		s.BackgroundAfter = time.Duration(*ms) * time.Millisecond
	}
	s.ApprovalTimeout = DefaultApprovalTimeout
	if ms := file.Approvals.TimeoutMs; ms != nil {
		s.ApprovalTimeout = time.Duration(*ms) * time.Millisecond
	}
	if ask := file.Approvals.AskInClient; ask != nil {
		s.TerminalApprovalsOnly = !*ask
	}
	s.JournalMaxAge, s.JournalMaxSize = DefaultJournalMaxAge, DefaultJournalMaxSize
	if d := file.Journal.MaxAgeDays; d != nil {
		s.JournalMaxAge = time.Duration(*d) * 24 * time.Hour
	}
	if m := file.Journal.MaxSizeMiB; m != nil {
		s.JournalMaxSize = *m << 20
	}
	s.UnloadAfter = DefaultUnloadAfter
	if ms := file.Plugins.UnloadAfterMs; ms != nil {
		s.UnloadAfter = time.Duration(*ms) * time.Millisecond
	}
	s.StandbyIdle = DefaultStandbyIdle
	if ms := file.Exec.StandbyIdleMs; ms != nil {
		s.StandbyIdle = time.Duration(*ms) * time.Millisecond
	}
	if !s.Mode.Valid() {
		return Settings{}, fmt.Errorf("%w: mode %q must be one of %s", ErrInvalid, s.Mode, list(Modes))
	}
	if !s.Sandbox.Valid() {
		return Settings{}, fmt.Errorf("%w: sandbox %q must be one of %s", ErrInvalid, s.Sandbox, sandbox.ModeList())
	}
	if s.BackgroundAfter <= 0 {
		return Settings{}, fmt.Errorf("%w: exec.backgroundAfterMs must be positive", ErrInvalid)
	}
	if s.ApprovalTimeout <= 0 {
		return Settings{}, fmt.Errorf("%w: approvals.timeoutMs must be positive", ErrInvalid)
	}
	if !filepath.IsAbs(cwd) {
		return Settings{}, fmt.Errorf("the working folder %q is not absolute", cwd)
	}
	roots := flags.Roots
	if len(roots) == 0 {
		roots = []string{cwd}
	}
	for _, r := range roots {
		if r == "" {
			return Settings{}, fmt.Errorf("%w: --root is empty", ErrInvalid)
		}
		if !filepath.IsAbs(r) {
			r = filepath.Join(cwd, r)
		}
		r = filepath.Clean(r)
		if !slices.Contains(s.Roots, r) {
			s.Roots = append(s.Roots, r)
		}
	}
	return s, nil
}

// pick returns the flag's value if given, else the file's, else def.
func pick[T any](flag, file *T, def T) T {
	switch {
	case flag != nil:
		return *flag
	case file != nil:
		return *file
	}
	return def
}
