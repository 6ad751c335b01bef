package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/internal/approval"
)

func newApprovalApproveCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "approve ID",
		Short: "Let a waiting call run, once",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{fmt.Errorf("%s takes one approval id (see juju approvals)", cmd.CommandPath())}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runApprovalDecide(cmd.OutOrStdout(), args[0], true)
		},
	}
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
