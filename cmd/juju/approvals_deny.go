package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/internal/approval"
)

// approvalDenyOptions are the flags of juju approvals deny.
type approvalDenyOptions struct {
	all    bool
	client string
	json   bool
}

func newApprovalDenyCommand() *cobra.Command {
	o := &approvalDenyOptions{}
	cmd := &cobra.Command{
		Use:   "deny ID | --all | --client NAME",
		Short: "Refuse a waiting call, or all of them; nothing is done",
		Long: `Refuse the waiting call ID: nothing is done, and the client is told
APPROVAL_DENIED. --all refuses every call that waits, in every workspace;
--client NAME every call of the client NAME, as 'juju approvals' lists it
(or of an OAuth client's id, oauth:ID, whatever names it declared). Use them
when a client floods you with calls: each client has room for 32 waiting
calls, and past that its calls are refused until you decide them.`,
		Example: `  juju approvals deny k3xq7mza
  juju approvals deny --all
  juju approvals deny --client claude-code --json`,
		Args: func(cmd *cobra.Command, args []string) error {
			bulk := o.all || o.client != ""
			switch {
			case o.all && o.client != "":
				return usageError{fmt.Errorf("%s takes --all or --client, not both", cmd.CommandPath())}
			case bulk && len(args) > 0:
				return usageError{fmt.Errorf("%s takes an approval id, or --all or --client, not both", cmd.CommandPath())}
			case !bulk && len(args) != 1:
				return usageError{fmt.Errorf("%s takes one approval id, or --all or --client NAME (see juju approvals)", cmd.CommandPath())}
			case o.json && !bulk:
				return usageError{fmt.Errorf("%s --json goes with --all or --client", cmd.CommandPath())}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				return runApprovalDecide(cmd.OutOrStdout(), args[0], false)
			}
			return runApprovalDenyMany(cmd.OutOrStdout(), o)
		},
	}
	cmd.Flags().BoolVar(&o.all, "all", false, "refuse every call that waits for your approval, in every workspace")
	cmd.Flags().StringVar(&o.client, "client", "", "refuse every waiting call of the client `NAME` (its name as listed, or oauth:ID)")
	cmd.Flags().BoolVar(&o.json, "json", false, "print the approvals refused as a JSON array, as juju approvals --json does")
	return cmd
}

// of reports whether a is a call of the client the owner named: its name
// as the list shows it or as declared, or its OAuth principal.
func (o *approvalDenyOptions) of(a workspaceApproval) bool {
	if o.all {
		return true
	}
	return a.Client == o.client || clientName(a.Client) == o.client || a.Principal != "" && a.Principal == o.client
}

// runApprovalDenyMany refuses every pending approval the options name.
// One decided or expired meanwhile is left as it is.
func runApprovalDenyMany(w io.Writer, o *approvalDenyOptions) error {
	recs, err := allApprovals()
	if err != nil {
		return err
	}
	denied := []workspaceApproval{}
	for _, a := range recs {
		if a.State != approval.Pending || !o.of(a) {
			continue
		}
		got, err := a.store.Decide(a.ID, false, "cli")
		switch {
		case errors.Is(err, approval.ErrDecided), errors.Is(err, approval.ErrExpired):
			continue
		case err != nil:
			return err
		}
		a.Record = got
		denied = append(denied, a)
	}
	if o.json {
		return writeJSON(w, denied)
	}
	if len(denied) == 0 {
		_, err := fmt.Fprintln(w, "Nothing to deny: no such call waits for your approval.")
		return err
	}
	tw := newTable(w)
	fmt.Fprintln(tw, "ID\tCLIENT\tTOOL\tWORKSPACE\tARGUMENTS")
	for _, a := range denied {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", a.ID, clientName(a.Client), a.Tool, a.Workspace, a.listed())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "\nDenied %s. Nothing was done; each client is told APPROVAL_DENIED when it calls again.\n", count(len(denied), "call"))
	return err
}
