package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/journal"
	"github.com/jujutools/juju/internal/visible"
	"github.com/jujutools/juju/internal/workspace"
)

// journalCheck is what the change journal of one workspace holds.
type journalCheck struct {
	Roots      []string `json:"roots"`
	Path       string   `json:"path"`
	Keeps      string   `json:"keeps"`      // the limits, in words
	MaxAgeDays int64    `json:"maxAgeDays"` // 0: no age limit
	MaxSizeMiB int64    `json:"maxSizeMiB"` // 0: no size limit
	journal.Stats
	Error string `json:"error,omitempty"`
}

// checkJournal reads the journal of the workspace the settings name, as
// juju stdio would open it.
func checkJournal(s config.Settings, dirs config.Dirs) *journalCheck {
	// The limits are the settings', whether or not the workspace opens:
	// a 0 would read as "no limit".
	c := &journalCheck{Roots: s.Roots}
	lim := workspace.JournalLimits(s)
	c.Keeps = lim.String()
	c.MaxAgeDays, c.MaxSizeMiB = int64(lim.MaxAge.Hours()/24), lim.MaxSize>>20
	ws, err := workspace.Open(workspace.FromSettings(s, dirs, nil))
	if err != nil {
		c.Error = err.Error()
		return c
	}
	defer ws.Close()
	c.Path = ws.Journal.Path()
	if c.Stats, err = ws.Journal.Stats(); err != nil {
		c.Error = err.Error()
	}
	return c
}

func (c *journalCheck) render(w io.Writer) {
	fmt.Fprintf(w, "\nChange journal (workspace %s)\n", visible.Join(c.Roots, ", "))
	if c.Error != "" {
		fmt.Fprintf(w, "  cannot be read: %s\n", visible.String(c.Error))
		return
	}
	fmt.Fprintf(w, "  holds %s\n", journalSummary(c.Stats))
	fmt.Fprintf(w, "  keeps %s ([journal] in the config file; 'juju rollback --prune' prunes now)\n", c.Keeps)
	if c.PrunedThrough != "" {
		fmt.Fprintf(w, "  pruned: every change up to %s\n", c.PrunedThrough)
	}
	if len(c.Pending) > 0 {
		fmt.Fprintf(w, "  left halfway: %s (see Problems)\n", strings.Join(c.Pending, ", "))
	}
	if c.SetAside != "" {
		fmt.Fprintf(w, "  replaced a damaged journal, kept beside it as %s\n", visible.String(c.SetAside))
	}
}

// pendingWords says that a juju left changes halfway in this workspace,
// and how to settle them.
func (c *journalCheck) pendingWords() string {
	var roots strings.Builder
	for _, r := range c.Roots {
		roots.WriteString(" --root " + shellQuote(r))
	}
	return fmt.Sprintf("workspace %s: a juju process stopped in the middle of change %s (it was killed, or the machine went down), "+
		"so its files are part old, part new; 'juju rollback%s' settles it now (the change is kept if every file was written, "+
		"else its files are put back), as the next juju serving this workspace does at its first call",
		strings.Join(c.Roots, ", "), strings.Join(c.Pending, ", "), roots.String())
}
