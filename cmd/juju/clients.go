package main

import (
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/internal/config"
)

func newClientsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "clients",
		Short: "List or revoke the OAuth clients juju serve granted access",
		Long: `Manage the OAuth clients of juju serve: the applications (claude.ai,
ChatGPT …) that registered with it and that you allowed, with a pairing
code, to use it. Grants are kept in the state directory and survive
restarts. 'juju clients revoke ID' takes one back: a running juju serve
refuses its tokens from the next request on.`,
		Args: cobra.ArbitraryArgs,
		RunE: runGroup,
	}
	cmd.AddCommand(newClientsListCommand(), newClientsRevokeCommand())
	return cmd
}

// oauthDir is where juju serve keeps its OAuth clients and grants.
func oauthDir(dirs config.Dirs) string { return filepath.Join(dirs.State, "oauth") }
