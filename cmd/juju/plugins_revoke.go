package main

import (
	"github.com/spf13/cobra"

	"github.com/jujutools/juju/host/install"
	"github.com/jujutools/juju/internal/config"
)

func newPluginsRevokeCommand() *cobra.Command {
	o := &pluginsGrantOptions{}
	cmd := &cobra.Command{
		Use:   "revoke NAME CAPABILITY...",
		Short: "Take capabilities away from an installed plugin",
		Long: `Take one or more capabilities ("all" for every one) away from an installed
plugin. From its next call, also in a running juju, the calls that need
them fail with CAPABILITY_DENIED. Core plugins cannot be revoked.`,
		Example: `  juju plugins revoke rake fs.read`,
		Args:    argsBetween(2, -1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dirs, err := config.DefaultDirs()
			if err != nil {
				return err
			}
			if err := install.CheckCapabilityNames(args[1:]); err != nil {
				return usageError{err}
			}
			ch, err := install.Revoke(cmd.Context(), dirs.Data, args[0], args[1:], cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			return printChange(cmd.OutOrStdout(), ch, "revoked", o)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print the result as JSON")
	return cmd
}
