package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/internal/approval"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/visible"
)

// approvalsOptions are the flags of juju approvals.
type approvalsOptions struct {
	json bool
	all  bool
}

func newApprovalsCommand() *cobra.Command {
	o := &approvalsOptions{}
	cmd := &cobra.Command{
		Use:   "approvals [show ID | approve ID | deny ID|--all|--client NAME]",
		Short: "See and decide the calls waiting for your approval",
		Long: `In inspect mode every edit and every command waits for your approval; in
edit mode every command does. When the MCP client cannot ask you itself,
the call waits here: 'juju approvals' lists what waits (in every workspace),
'juju approvals show ID' shows one call's arguments in full, 'juju approvals
approve ID' lets it run once, 'juju approvals deny ID' refuses it, and
nothing is done; 'juju approvals deny --all' refuses every call that waits,
'--client NAME' every call of one client.

Arguments are shown exactly: a run of three or more spaces as ⟨N spaces⟩,
control and invisible characters as \x1b or \u202e escapes, a backslash as
\\. The list shows up to 600 characters of each call's arguments and says
when there is more; 'juju approvals show ID' shows all of them.

A call waits up to approvals.timeoutMs (45 s by default), then answers the
client APPROVAL_PENDING with the id. Approve it afterwards and the same call,
retried by the client with the same arguments, runs once without asking
again, as long as the workspace has not changed through juju since you were
asked (a file written, a command run): otherwise the approval shows as stale
and a new one waits for you, saying why. Undecided approvals expire after an
hour.`,
		Example: `  juju approvals
  juju approvals show k3xq7mza
  juju approvals approve k3xq7mza
  juju approvals deny k3xq7mza
  juju approvals deny --client claude-code
  juju approvals --all --json`,
		Args:                  noArgs,
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runApprovalsList(cmd.OutOrStdout(), o, time.Now())
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON: every approval kept, with its workspace")
	cmd.Flags().BoolVar(&o.all, "all", false, "list the decided and expired approvals too (kept for a day)")
	cmd.AddCommand(newApprovalShowCommand(), newApprovalApproveCommand(), newApprovalDenyCommand())
	return cmd
}

// workspaceApproval is an approval with the workspace it belongs to and
// its arguments whole.
type workspaceApproval struct {
	approval.Record
	ArgsFull  json.RawMessage `json:"argsFull,omitempty"` // the JSON arguments, exactly as the plugin would get them
	ArgsShown string          `json:"argsShown"`          // what the owner reads: ArgsFull rendered by visible.Args
	Workspace string          `json:"workspace"`          // the workspace's state folder name
	store     *approval.Store
}

// listArgs is how many characters of a call's arguments the list shows.
const listArgs = 600

// listWhat is how many characters of the first line of what a call does
// (approval.Request.What) the list shows.
const listWhat = 200

// newWorkspaceApproval reads the whole arguments of r and renders them.
// An approval recorded by an earlier juju has them in short only, and
// says so.
func newWorkspaceApproval(r approval.Record, ws string, st *approval.Store) workspaceApproval {
	a := workspaceApproval{Record: r, Workspace: ws, store: st}
	full, err := st.Args(r.ID)
	switch {
	case err != nil:
		a.ArgsShown = "(in short, recorded by an earlier juju) " + visible.String(r.Args)
	case json.Valid(full):
		a.ArgsFull = full
		a.ArgsShown = visible.Args(full, visible.Limits{})
	default:
		a.ArgsShown = visible.Args(full, visible.Limits{})
	}
	return a
}

// state is the approval's state as the owner reads it: "stale" for one
// spent without running because the workspace changed after it was asked.
func (a workspaceApproval) state() string {
	if a.Stale {
		return "stale"
	}
	return string(a.State)
}

// listed is the arguments as the list shows them: at most listArgs
// characters, and a plain note when there is more.
func (a workspaceApproval) listed() string {
	shown := a.clipped()
	if a.What != "" {
		// The first line of what juju says the call does: a plan's
		// paths follow in juju approvals show.
		first, more, _ := strings.Cut(a.What, "\n")
		first, left := visible.Clip(first, listWhat)
		if more != "" || left > 0 {
			first += " (see juju approvals show " + a.ID + ")"
		}
		shown = "[it " + first + "] " + shown
	}
	return shown
}

// clipped is the arguments cut at listArgs characters, saying so.
func (a workspaceApproval) clipped() string {
	shown, left := visible.Clip(a.ArgsShown, listArgs)
	if left > 0 {
		shown += fmt.Sprintf(" (%d more characters not shown: juju approvals show %s)", left, a.ID)
	}
	return shown
}

// allApprovals lists the approvals of every workspace, newest first.
func allApprovals() ([]workspaceApproval, error) {
	dirs, err := config.DefaultDirs()
	if err != nil {
		return nil, err
	}
	wss, err := filepath.Glob(filepath.Join(dirs.State, "workspaces", "*"))
	if err != nil {
		return nil, err
	}
	var out []workspaceApproval
	for _, ws := range wss {
		st := approval.Open(approval.Dir(ws), approval.Options{})
		recs, err := st.List()
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			out = append(out, newWorkspaceApproval(r, filepath.Base(ws), st))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Created.After(out[j].Created) })
	return out, nil
}

func runApprovalsList(w io.Writer, o *approvalsOptions, now time.Time) error {
	recs, err := allApprovals()
	if err != nil {
		return err
	}
	if o.json {
		if recs == nil {
			recs = []workspaceApproval{}
		}
		return writeJSON(w, recs)
	}
	shown := 0
	var notes []string // why an approval asks again
	tw := newTable(w)
	for _, r := range recs {
		if !o.all && r.State != approval.Pending {
			continue
		}
		if shown == 0 {
			fmt.Fprintln(tw, "ID\tAGE\tSTATE\tCLIENT\tTOOL\tWORKSPACE\tARGUMENTS")
		}
		shown++
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, age(now.Sub(r.Created)), r.state(), clientName(r.Client), r.Tool, r.Workspace, r.listed())
		if r.Note != "" {
			notes = append(notes, fmt.Sprintf("%s: %s; read it again before you decide.", r.ID, visible.String(r.Note)))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for i, n := range notes {
		if i == 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, n)
	}
	if shown == 0 {
		if o.all {
			_, err = fmt.Fprintln(w, "No approvals kept.")
		} else {
			_, err = fmt.Fprintln(w, "Nothing waits for your approval.")
		}
		return err
	}
	if !o.all {
		_, err = fmt.Fprintln(w, "\nSee one in full with 'juju approvals show ID'; approve it with 'juju approvals approve ID', refuse it with 'juju approvals deny ID'.")
	}
	return err
}

// findApproval finds the approval id in any workspace.
func findApproval(id string) (workspaceApproval, error) {
	recs, err := allApprovals()
	if err != nil {
		return workspaceApproval{}, err
	}
	for _, r := range recs {
		if r.ID == id {
			return r, nil
		}
	}
	return workspaceApproval{}, fmt.Errorf("no approval %s (see juju approvals --all)", visible.Quote(id))
}

// clientName is the client's name as the owner reads it: "-" for none.
func clientName(c string) string {
	if c == "" {
		return "-"
	}
	return visible.String(c)
}

// age says how long ago, roughly.
func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}
