package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"time"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/host/approval"
	"github.com/jujutools/juju/host/config"
)

// approvalsOptions are the flags of juju approvals.
type approvalsOptions struct {
	json bool
	all  bool
}

func newApprovalsCommand() *cobra.Command {
	o := &approvalsOptions{}
	cmd := &cobra.Command{
		Use:   "approvals [approve ID | deny ID]",
		Short: "See and decide the calls waiting for your approval",
		Long: `In inspect mode every edit and every command waits for your approval; in
edit mode every command does. When the MCP client cannot ask you itself,
the call waits here: 'juju approvals' lists what waits (in every workspace),
'juju approvals approve ID' lets it run once, 'juju approvals deny ID'
refuses it, and nothing is done.

A call waits up to approvals.timeoutMs (45 s by default), then answers the
client APPROVAL_PENDING with the id. Approve it afterwards and the same call,
retried by the client with the same arguments, runs once without asking
again. Undecided approvals expire after an hour.`,
		Example: `  juju approvals
  juju approvals approve k3xq7mza
  juju approvals deny k3xq7mza
  juju approvals --all --json`,
		Args:                  noArgs,
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runApprovalsList(cmd.OutOrStdout(), o, time.Now())
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON: every approval kept, with its workspace")
	cmd.Flags().BoolVar(&o.all, "all", false, "list the decided and expired approvals too (kept for a day)")
	cmd.AddCommand(newApprovalDecideCommand(true), newApprovalDecideCommand(false))
	return cmd
}

func newApprovalDecideCommand(approve bool) *cobra.Command {
	use, short := "approve ID", "Let a waiting call run, once"
	if !approve {
		use, short = "deny ID", "Refuse a waiting call; nothing is done"
	}
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{fmt.Errorf("%s takes one approval id (see juju approvals)", cmd.CommandPath())}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runApprovalDecide(cmd.OutOrStdout(), args[0], approve)
		},
	}
}

// workspaceApproval is an approval with the workspace it belongs to.
type workspaceApproval struct {
	approval.Record
	Workspace string `json:"workspace"` // the workspace's state folder name
	store     *approval.Store
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
			out = append(out, workspaceApproval{Record: r, Workspace: filepath.Base(ws), store: st})
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
	tw := newTable(w)
	for _, r := range recs {
		if !o.all && r.State != approval.Pending {
			continue
		}
		if shown == 0 {
			fmt.Fprintln(tw, "ID\tAGE\tSTATE\tCLIENT\tTOOL\tARGUMENTS\tWORKSPACE")
		}
		shown++
		client := r.Client
		if client == "" {
			client = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, age(now.Sub(r.Created)), r.State, client, r.Tool, clip(r.Args, 60), r.Workspace)
	}
	if err := tw.Flush(); err != nil {
		return err
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
		_, err = fmt.Fprintln(w, "\nApprove one with 'juju approvals approve ID', refuse it with 'juju approvals deny ID'.")
	}
	return err
}

func runApprovalDecide(w io.Writer, id string, approve bool) error {
	recs, err := allApprovals()
	if err != nil {
		return err
	}
	for _, r := range recs {
		if r.ID != id {
			continue
		}
		got, err := r.store.Decide(id, approve, "cli")
		switch {
		case errors.Is(err, approval.ErrExpired):
			return fmt.Errorf("approval %s has expired; the client must call the tool again", id)
		case errors.Is(err, approval.ErrDecided):
			return fmt.Errorf("approval %s was already decided (%s)", id, got.State)
		case err != nil:
			return err
		}
		if approve {
			_, err = fmt.Fprintf(w, "Approved %s: %s %s. The waiting call runs now; if it already gave up, the client's retry of the same call runs once.\n", id, got.Tool, clip(got.Args, 60))
		} else {
			_, err = fmt.Fprintf(w, "Denied %s: %s %s. Nothing was done; the client is told APPROVAL_DENIED.\n", id, got.Tool, clip(got.Args, 60))
		}
		return err
	}
	return fmt.Errorf("no approval %q (see juju approvals --all)", id)
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

// clip keeps at most n runes of s, marking the cut; unlike oneLine it never
// stops at a sentence, since arguments are not prose.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
