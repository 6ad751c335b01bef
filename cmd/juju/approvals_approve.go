package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/internal/approval"
	"github.com/jujutools/juju/internal/visible"
)

func newApprovalApproveCommand() *cobra.Command {
	var yes bool
	cmd := &cobra.Command{
		Use:   "approve ID",
		Short: "Let a waiting call run, once",
		Long: "Lets the waiting call ID run, once. On a terminal juju first shows the call " +
			"(client, tool, arguments) and asks; --yes approves without asking.",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{fmt.Errorf("%s takes one approval id (see juju approvals)", cmd.CommandPath())}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if in := cmd.InOrStdin(); !yes && isTerminal(in) {
				ok, err := confirmApproval(cmd.ErrOrStderr(), in, args[0])
				if err != nil {
					return err
				}
				if !ok {
					// Not what the command was asked to do: status 1, so
					// approve ID && … goes no further.
					return fmt.Errorf("not approved: the call still waits (juju approvals deny %s refuses it)", args[0])
				}
			}
			return runApprovalDecide(cmd.OutOrStdout(), args[0], true)
		},
	}
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "approve without showing the call and asking first")
	return cmd
}

// confirmApproval shows the waiting call id and asks the owner on w
// whether it runs, reading the answer from in: the id may be one a model
// relayed, and the call it names may not be the one the owner has in mind.
// An id that waits for nothing is left to runApprovalDecide to explain.
func confirmApproval(w io.Writer, in io.Reader, id string) (bool, error) {
	a, err := findApproval(id)
	if err != nil || a.State != approval.Pending {
		return true, nil
	}
	does := ""
	if a.What != "" {
		does = "  does    it " + strings.ReplaceAll(a.What, "\n", "\n          ") + "\n"
	}
	fmt.Fprintf(w, "Approval %s waits for you:\n  client  %s\n  tool    %s (tier %s)\n%s  args    %s\nRun this call once? [y/N] ",
		id, clientName(a.Client), visible.String(a.Tool), a.Tier, does, a.clipped())
	answer, _ := bufio.NewReader(in).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "y", "yes":
		return true, nil
	}
	fmt.Fprintln(w)
	return false, nil
}

// runApprovalDecide records the owner's answer to the approval id.
func runApprovalDecide(w io.Writer, id string, approve bool) error {
	a, err := findApproval(id)
	if err != nil {
		return err
	}
	got, err := a.store.Decide(id, approve, "cli")
	switch {
	case errors.Is(err, approval.ErrExpired):
		return fmt.Errorf("approval %s has expired; the client must call the tool again", id)
	case errors.Is(err, approval.ErrDecided):
		return fmt.Errorf("approval %s was already decided (%s)", id, got.State)
	case err != nil:
		return err
	}
	if approve {
		_, err = fmt.Fprintf(w, "Approved %s: %s %s. The waiting call runs now; if it already gave up, the client's retry of the same call runs once.\n", id, got.Tool, a.listed())
	} else {
		_, err = fmt.Fprintf(w, "Denied %s: %s %s. Nothing was done; the client is told APPROVAL_DENIED.\n", id, got.Tool, a.listed())
	}
	return err
}
