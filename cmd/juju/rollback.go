package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/journal"
	"github.com/jujutools/juju/internal/visible"
	"github.com/jujutools/juju/internal/workspace"
	"github.com/jujutools/juju/sdk/abi"
)

// rollbackOptions are the flags of juju rollback.
type rollbackOptions struct {
	roots      []string
	configFile string
	after      bool
	force      bool
	json       bool
	limit      int
	prune      bool
}

func newRollbackCommand() *cobra.Command {
	o := &rollbackOptions{}
	cmd := &cobra.Command{
		Use:   "rollback [CHANGE]",
		Short: "Undo a change juju made to the workspace",
		Long: `Undo a change recorded in the workspace's journal: every file it touched
gets back its old bytes, mode and existence, as one new change (which can
itself be rolled back). Without CHANGE, list the recent changes and do
nothing: pick the one to undo from the list.

A file changed since the change (by hand, or by a later change) no longer
holds what the change left; rolling back would lose that work, so juju
refuses and names the file, unless --force. With --after, every change
recorded after CHANGE is undone (CHANGE itself stays).

The journal keeps 30 days or 256 MiB of changes (the [journal] section of
the config file changes that); a running server prunes older ones at start
and when it grows past the size. --prune prunes now and says what it freed.
A pruned change can no longer be rolled back.

The workspace is found as juju stdio finds it: --root (default the current
folder) and the config file. This works while a server runs on the same
workspace.`,
		Example: `  juju rollback                 # list the recent changes
  juju rollback c000042         # undo one change (c42 or 42 work too)
  juju rollback --after 40      # undo everything after change 40
  juju rollback 42 --force      # overwrite files changed since
  juju rollback --prune         # drop the changes past the journal's limits now`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageError{fmt.Errorf("juju rollback takes at most one change id, got %d", len(args))}
			}
			if len(args) == 1 && !journal.ValidID(args[0]) {
				return usageError{fmt.Errorf("%s is not a change id; ids look like c000042 (c42 and 42 work too), and juju rollback alone lists them", visible.Quote(args[0]))}
			}
			if o.after && len(args) == 0 {
				return usageError{errors.New("--after needs a change id")}
			}
			if o.force && len(args) == 0 && !o.prune {
				// Without CHANGE juju rollback lists: a --force there
				// undoes nothing, and the owner who typed it meant to.
				return usageError{errors.New("--force needs a change id: juju rollback CHANGE --force undoes that change over files changed since; juju rollback alone lists the changes")}
			}
			if o.prune && (len(args) > 0 || o.after || o.force) {
				return usageError{errors.New("--prune takes no change id, --after or --force")}
			}
			if o.limit < 0 {
				return usageError{fmt.Errorf("--limit %d must not be negative", o.limit)}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			dirs, err := config.DefaultDirs()
			if err != nil {
				return err
			}
			cwd, err := os.Getwd()
			if err != nil {
				return err
			}
			return runRollback(cmd.Context(), o, cmd.Flags().Changed("root"), args, cmd.OutOrStdout(), cmd.ErrOrStderr(), dirs, cwd)
		},
	}
	o.bind(cmd.Flags())
	return cmd
}

func (o *rollbackOptions) bind(f *pflag.FlagSet) {
	f.StringArrayVar(&o.roots, "root", nil, "the workspace `DIR`, as given to juju stdio; repeat for more (default: the current folder)")
	addConfigFlag(f, &o.configFile)
	f.BoolVar(&o.after, "after", false, "undo every change recorded after CHANGE, keeping CHANGE")
	f.BoolVar(&o.force, "force", false, "overwrite files that changed since the change instead of refusing")
	f.BoolVar(&o.json, "json", false, "print JSON: the list of changes, or what the rollback did")
	f.IntVar(&o.limit, "limit", 20, "list at most `N` changes when no CHANGE is given (0: all)")
	f.BoolVar(&o.prune, "prune", false, "prune the changes past the journal's limits ([journal] in the config file) now")
}

// rollbackAuthor is who the journal records for a rollback from the CLI.
var rollbackAuthor = journal.Author{Client: "juju rollback", Tool: "juju rollback"}

// runRollback lists the changes (no args) or rolls one back.
func runRollback(ctx context.Context, o *rollbackOptions, rootsGiven bool, args []string, w, errw io.Writer, dirs config.Dirs, cwd string) error {
	file, err := loadConfig(o.configFile, dirs)
	if err != nil {
		return err
	}
	var flags config.Flags
	if rootsGiven {
		flags.Roots = o.roots
	}
	s, err := config.Resolve(flags, file, cwd)
	if err != nil {
		return err
	}
	cause := &causeLog{}
	ws, err := workspace.Open(workspace.FromSettings(s, dirs, slog.New(cause)))
	if err != nil {
		return err
	}
	defer ws.Close()
	j := ws.Journal
	if !exists(j.Path()) {
		// Nothing was ever written in this workspace: say so without
		// making its journal (to list or to prune), and point to the
		// workspace above when the owner stands in a subfolder of the one
		// juju served.
		return noJournal(w, o, args, s.Roots, workspaceHint(dirs, s.Roots, journal.FileName, "rollback", "its journal of changes"))
	}
	// A change a juju left halfway as it died (killed, the machine down)
	// is settled first, and the owner told, so that the list shows the
	// workspace as it is: otherwise its files stay half old, half new,
	// with no change listed for them, until the next write settles it.
	settlePending(j, cause, errw)
	if o.prune {
		return pruneJournal(w, j, o.json)
	}
	if len(args) == 0 {
		return listChanges(w, j, o)
	}
	var res *abi.ChangeResult
	if o.after {
		res, err = j.RollbackAfter(ctx, rollbackAuthor, args[0], o.force)
	} else {
		res, err = j.Rollback(ctx, rollbackAuthor, args[0], o.force)
	}
	if err != nil {
		var ae *abi.Error
		if errors.As(err, &ae) && ae.Code == abi.Conflict && !o.force {
			return errors.New(forOwner(ae.Message))
		}
		if errors.As(err, &ae) && (ae.Code == abi.Internal || ae.Code == abi.TooLarge) && cause.last() != "" {
			// The journal words these for a model and logs their cause;
			// the owner, who is the one to act on it, reads the cause.
			return fmt.Errorf("%s (%s)", forOwner(ae.Message), visible.String(cause.last()))
		}
		if errors.As(err, &ae) && ae.Code == abi.NotFound {
			// The journal's words are for a model, which lists the
			// changes with its tool; the owner lists them here.
			return errors.New(strings.Replace(ae.Message, "list the changes with change_history", "juju rollback alone lists them", 1))
		}
		if errors.As(err, &ae) {
			return errors.New(ae.Message)
		}
		return err
	}
	if o.json {
		return writeJSON(w, res)
	}
	fmt.Fprintf(w, "Rolled back %s as change %s:\n", strings.Join(res.RolledBack, ", "), res.ChangeID)
	for _, f := range res.Files {
		fmt.Fprintf(w, "  %-11s %s\n", f.Action, visible.String(f.Path))
	}
	// The rollback is a change like any other: what it replaced, a file
	// edited by hand and overwritten with --force too, comes back with it.
	_, err = fmt.Fprintf(w, "Undo this rollback with: juju rollback %s\n", res.ChangeID)
	return err
}

// forOwner rewords the journal's answer to a model's rollback_changes for
// the owner at the terminal: the flag to give, and no "tell the owner".
func forOwner(msg string) string {
	return strings.NewReplacer(
		"roll back with force to overwrite it", "add --force to overwrite it",
		"; try again, and tell the owner if it persists", "",
		" (or tell the owner)", "",
		"See change_history for the changes in effect", "juju rollback alone lists the changes",
	).Replace(msg)
}

// settlePending settles a change a crashed juju left pending in j, and
// tells the owner on errw what became of it. A journal that cannot be
// opened to write (a read-only state folder) is left to the command, whose
// list reads it and whose rollback says why it cannot write; a pending
// change that cannot be settled (a full disk) is said with its reason; a
// damaged journal, set aside, is said as that alone: no juju stopped.
func settlePending(j *journal.Journal, cause *causeLog, errw io.Writer) {
	cause.mu.Lock()
	cause.watch = true
	cause.mu.Unlock()
	err := j.Recover()
	cause.mu.Lock()
	cause.watch = false
	said := cause.settled
	cause.settled = nil
	cause.mu.Unlock()
	var damaged *journal.DamagedError
	if errors.As(err, &damaged) {
		// No juju stopped halfway: the journal's file itself could not be
		// read (truncated, overwritten, not a file), and was set aside.
		fmt.Fprintf(errw, "juju: %s\n", visible.String(damaged.Error()))
		return
	}
	if len(said) == 0 {
		return
	}
	fmt.Fprintln(errw, "juju: a juju process stopped in the middle of a change (it was killed, or the machine went down):")
	for _, l := range said {
		fmt.Fprintf(errw, "  %s\n", l)
	}
	var ae *abi.Error
	if errors.As(err, &ae) {
		fmt.Fprintf(errw, "  not yet settled: %s\n", ae.Message)
	} else if err != nil {
		fmt.Fprintf(errw, "  not yet settled: %s\n", visible.String(err.Error()))
	}
}

// causeLog keeps the last error the journal logged: the cause of an
// INTERNAL answer, which names none. While watch is set, it also keeps
// what the journal says of settling a change left pending, for the owner.
type causeLog struct {
	mu      sync.Mutex
	msg     string
	watch   bool
	settled []string
}

func (c *causeLog) Enabled(_ context.Context, l slog.Level) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return l >= slog.LevelError || c.watch && l >= slog.LevelInfo
}

func (c *causeLog) Handle(_ context.Context, r slog.Record) error {
	msg := r.Message
	var id, path, cause string
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "err":
			cause = a.Value.String()
		case "id":
			id = a.Value.String()
		case "path":
			path = a.Value.String()
		}
		return true
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.watch {
		c.settled = append(c.settled, settledLine(msg, id, path, cause))
	}
	if r.Level >= slog.LevelError {
		if cause != "" {
			msg += ": " + cause
		}
		c.msg = msg
	}
	return nil
}

// settledLine words for the owner what the journal logged as it settled
// the pending change id.
func settledLine(msg, id, path, cause string) string {
	switch msg {
	case "journal: undid a change interrupted before its last write":
		return fmt.Sprintf("change %s had not written all its files: they were put back as they were before it, and it is not listed", id)
	case "journal: kept a change interrupted after its last write":
		return fmt.Sprintf("change %s had written all its files: it is kept and listed, and can be rolled back", id)
	case "journal: a path of an interrupted change was changed since; it is left as it is":
		return fmt.Sprintf("%s was changed since change %s began writing it, so it is left as it is", visible.String(path), id)
	}
	line := strings.TrimPrefix(msg, "journal: ")
	if id != "" {
		line = id + ": " + line
	}
	if path != "" {
		line += ": " + visible.String(path)
	}
	if cause != "" {
		line += " (" + visible.String(cause) + ")"
	}
	return line
}

func (c *causeLog) WithAttrs([]slog.Attr) slog.Handler { return c }
func (c *causeLog) WithGroup(string) slog.Handler      { return c }

func (c *causeLog) last() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.msg
}

// noJournal answers juju rollback in a workspace that has no journal yet.
func noJournal(w io.Writer, o *rollbackOptions, args []string, roots []string, hint string) error {
	where := "the workspace " + visible.Join(roots, ", ")
	if o.prune {
		if o.json {
			return writeJSON(w, &journal.PruneResult{})
		}
		fmt.Fprintf(w, "Nothing to prune: no change has been recorded in %s.\n", where)
		if hint != "" {
			fmt.Fprintln(w, hint)
		}
		return nil
	}
	if len(args) > 0 {
		msg := fmt.Sprintf("there is no change %s: no change has been recorded in %s", visible.String(args[0]), where)
		if hint != "" {
			msg += "; " + hint
		}
		return errors.New(msg)
	}
	if o.json {
		return writeJSON(w, []changeJSON{})
	}
	fmt.Fprintf(w, "No change has been recorded in %s.\n", where)
	if hint != "" {
		fmt.Fprintln(w, hint)
	}
	return nil
}

// changeJSON is one change in juju rollback --json.
type changeJSON struct {
	ID           string    `json:"id"`
	Time         time.Time `json:"time"`
	Client       string    `json:"client,omitempty"`
	Plugin       string    `json:"plugin,omitempty"`
	Tool         string    `json:"tool,omitempty"`
	CallID       string    `json:"callId,omitempty"`
	Paths        []string  `json:"paths"`
	RolledBackBy string    `json:"rolledBackBy,omitempty"`
	RollbackOf   []string  `json:"rollbackOf,omitempty"`
}

// listChanges prints the most recent changes, newest first.
func listChanges(w io.Writer, j *journal.Journal, o *rollbackOptions) error {
	all, err := j.Changes(time.Time{})
	if err != nil {
		return err
	}
	var recent []journal.ChangeSummary
	for i := len(all) - 1; i >= 0 && (o.limit == 0 || len(recent) < o.limit); i-- {
		recent = append(recent, all[i])
	}
	if o.json {
		out := make([]changeJSON, len(recent))
		for i, c := range recent {
			out[i] = changeJSON{ID: c.ID, Time: c.Time, Client: c.Client, Plugin: c.Plugin, Tool: c.Tool, CallID: c.CallID,
				Paths: c.Paths, RolledBackBy: c.RolledBackBy, RollbackOf: c.RollbackOf}
		}
		return writeJSON(w, out)
	}
	earlier, err := j.Earlier()
	if err != nil {
		return err
	}
	if len(recent) == 0 {
		if earlier != "" {
			fmt.Fprintf(w, "The journal holds no change now: %s.\n", earlier)
			return nil
		}
		fmt.Fprintln(w, "No change has been recorded in this workspace.")
		return nil
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "CHANGE\tTIME\tTOOL\tCLIENT\tPATHS\tSTATE")
	for _, c := range recent {
		state := ""
		switch {
		case c.RolledBack:
			state = "rolled back by " + c.RolledBackBy
		case len(c.RollbackOf) > 0:
			state = "undid " + strings.Join(c.RollbackOf, ", ")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", c.ID, c.Time.Local().Format("2006-01-02 15:04:05"), c.Tool, clientName(c.Client), paths(c.Paths, 3), state)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if earlier != "" && len(recent) == len(all) {
		fmt.Fprintf(w, "\nNo older change is in the journal: %s.\n", earlier)
	}
	fmt.Fprintln(w, "\nUndo one with: juju rollback CHANGE")
	return nil
}

// pruneJournal prunes the journal to its limits and says what that freed.
func pruneJournal(w io.Writer, j *journal.Journal, asJSON bool) error {
	res, err := j.Prune()
	if err != nil {
		var ae *abi.Error
		if errors.As(err, &ae) {
			return errors.New(ae.Message)
		}
		return err
	}
	if asJSON {
		return writeJSON(w, res)
	}
	if res.Changes == 0 {
		fmt.Fprintf(w, "Nothing to prune: every change is within the journal's limits (it keeps %s).\n", j.Limits())
	} else {
		fmt.Fprintf(w, "Pruned %d change(s), %s to %s: the journal keeps %s. They can no longer be rolled back.\n",
			res.Changes, res.First, res.Last, j.Limits())
	}
	if res.PreImages > 0 || res.Changes > 0 {
		fmt.Fprintf(w, "Freed %s (%d stored file content(s)).\n", humanBytes(res.Freed), res.PreImages)
	}
	if res.Compacted {
		fmt.Fprintf(w, "Compacted the journal's file from %s to %s.\n", humanBytes(res.FileBytesBefore), humanBytes(res.Kept.FileBytes))
	}
	fmt.Fprintf(w, "The journal holds %s.\n", journalSummary(res.Kept))
	return nil
}

// journalSummary says what a journal holds, in one line.
func journalSummary(s journal.Stats) string {
	switch {
	case s.FileBytes == 0:
		return "no change (nothing was written in this workspace yet)"
	case s.Changes == 0:
		return fmt.Sprintf("no change (a %s file)", humanBytes(s.FileBytes))
	}
	return fmt.Sprintf("%d change(s) since %s (%s), %s of changes in a %s file",
		s.Changes, s.OldestID, s.OldestTime.Local().Format("2006-01-02 15:04"), humanBytes(s.Bytes), humanBytes(s.FileBytes))
}

// paths shows at most max paths, each rendered visible: a file name is the
// model's text.
func paths(p []string, max int) string {
	if len(p) <= max {
		return visible.Join(p, ", ")
	}
	return visible.Join(p[:max], ", ") + fmt.Sprintf(" (+%d more)", len(p)-max)
}
