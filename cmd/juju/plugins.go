package main

import "github.com/spf13/cobra"

func newPluginsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plugins",
		Short: "Show the plugins that provide the tools",
		Long: `Every tool comes from a WebAssembly plugin. The core plugins are built into
juju; the ones you install live in the data directory (see juju doctor).
A plugin can touch the world only through the capabilities it holds: core
plugins hold those their manifests ask for, an installed plugin only those
you granted.`,
		Example:               `  juju plugins list`,
		Args:                  cobra.ArbitraryArgs,
		RunE:                  runGroup,
		DisableFlagsInUseLine: true,
	}
	cmd.AddCommand(newPluginsListCommand())
	return cmd
}
