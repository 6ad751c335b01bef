package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/internal/approval"
	"github.com/jujutools/juju/internal/visible"
)

// approvalShowOptions are the flags of juju approvals show.
type approvalShowOptions struct {
	json bool
}

func newApprovalShowCommand() *cobra.Command {
	o := &approvalShowOptions{}
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show one call waiting for your approval, its arguments in full",
		Long: `Show the call ID: the client, the tool, its plugin and tier, the workspace,
and its arguments in full, nothing cut, exactly as the tool would get them:
a run of three or more spaces shows as ⟨N spaces⟩, control and invisible
characters as \x1b or \u202e escapes, a backslash as \\.`,
		Example: `  juju approvals show k3xq7mza
  juju approvals show k3xq7mza --json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{fmt.Errorf("%s takes one approval id (see juju approvals)", cmd.CommandPath())}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runApprovalShow(cmd.OutOrStdout(), args[0], o, time.Now())
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print the approval as JSON, as juju approvals --json does")
	return cmd
}

func runApprovalShow(w io.Writer, id string, o *approvalShowOptions, now time.Time) error {
	a, err := findApproval(id)
	if err != nil {
		return err
	}
	if o.json {
		return writeJSON(w, a)
	}
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("Approval %s: %s, asked %s ago\n", a.ID, a.state(), age(now.Sub(a.Created)))
	if a.Note != "" {
		p("  asked again: %s\n", visible.String(a.Note))
	}
	if a.Stale {
		p("  not run: the workspace changed through juju after it was asked, so juju asked you again\n")
	}
	p("  client     %s\n", clientName(a.Client))
	p("  tool       %s (plugin %s, tier %s)\n", a.Tool, a.Plugin, a.Tier)
	p("  workspace  %s\n", a.Workspace)
	p("  call       %s\n", a.CallID)
	if !a.Decided.IsZero() {
		p("  decided    %s by %s\n", a.Decided.Local().Format("2006-01-02 15:04:05"), a.By)
	}
	if a.What != "" {
		// Written by juju, every character visible (host.describe).
		p("What it does: it %s\n", indent(a.What))
	}
	p("Arguments, in full (a run of 3 or more spaces shows as ⟨N spaces⟩; control and invisible characters as \\x.. or \\u.. escapes; a backslash as \\\\):\n")
	p("  %s\n", a.ArgsShown)
	if a.State == approval.Pending {
		p("\nApprove it with 'juju approvals approve %s', refuse it with 'juju approvals deny %s'.\n", a.ID, a.ID)
	}
	return nil
}

// indent indents the lines after the first of juju's description of a
// call, under the line that introduces it.
func indent(what string) string {
	return strings.ReplaceAll(what, "\n", "\n  ")
}
