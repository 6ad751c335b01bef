package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/oauth"
)

func newClientsRevokeCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "revoke ID",
		Short: "Take back what an OAuth client was granted, and forget it",
		Long: `Revoke an OAuth client: its access and refresh tokens are refused from the
next request on, also by a juju serve that is running, and its registration
is removed, so it must register and ask you again (with a new pairing
code). 'juju clients list' shows the ids.`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runClientsRevoke(args[0], cmd.OutOrStdout())
		},
	}
	return cmd
}

func runClientsRevoke(id string, out io.Writer) error {
	dirs, err := config.DefaultDirs()
	if err != nil {
		return err
	}
	err = oauth.OpenStore(oauthDir(dirs)).Revoke(id)
	if errors.Is(err, oauth.ErrUnknownClient) {
		return fmt.Errorf("no OAuth client %q; juju clients list shows them", id)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Revoked %s: its tokens are refused from now on.\n", id)
	return nil
}
