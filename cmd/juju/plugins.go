package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

func newPluginsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plugins",
		Short: "Show the plugins that provide the tools",
		Long: `Every tool comes from a WebAssembly plugin. The core plugins are built into
juju; the ones you install live in the data directory (see juju doctor).
A plugin can touch the world only through the capabilities it holds: core
plugins hold those their manifests ask for, an installed plugin only those
you granted.`,
		Example: `  juju plugins list
  juju plugins install ./my-plugin --grant fs.read
  juju plugins verify`,
		Args:                  cobra.ArbitraryArgs,
		RunE:                  runGroup,
		DisableFlagsInUseLine: true,
	}
	cmd.AddCommand(
		newPluginsListCommand(),
		newPluginsInfoCommand(),
		newPluginsInstallCommand(),
		newPluginsRemoveCommand(),
		newPluginsGrantCommand(),
		newPluginsRevokeCommand(),
		newPluginsVerifyCommand(),
		newPluginsBuildCommand(),
	)
	return cmd
}

// argsBetween accepts from min to max positional arguments (max < 0: no
// limit), refusing others as a usage error that names what is expected.
func argsBetween(min, max int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) >= min && (max < 0 || len(args) <= max) {
			return nil
		}
		use := strings.TrimPrefix(cmd.Use, cmd.Name()+" ")
		return usageError{fmt.Errorf("usage: %s %s (got %s)", cmd.CommandPath(), use, count(len(args), "argument"))}
	}
}
