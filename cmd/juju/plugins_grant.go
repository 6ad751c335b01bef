package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/host/install"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/sdk/abi"
)

// pluginsGrantOptions are the flags of juju plugins grant and revoke.
type pluginsGrantOptions struct {
	json bool
}

func newPluginsGrantCommand() *cobra.Command {
	o := &pluginsGrantOptions{}
	cmd := &cobra.Command{
		Use:   "grant NAME CAPABILITY...",
		Short: "Grant an installed plugin capabilities it asks for",
		Long: `Grant an installed plugin one or more of the capabilities its manifest asks
for ("all" for every one). A capability the manifest does not ask for cannot
be granted. Only you grant: no tool an MCP client can call changes grants.
A running juju applies the change to the plugin's next call.`,
		Example: `  juju plugins grant rake fs.read
  juju plugins grant rake all`,
		Args: argsBetween(2, -1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dirs, err := config.DefaultDirs()
			if err != nil {
				return err
			}
			if err := install.CheckCapabilityNames(args[1:]); err != nil {
				return usageError{err}
			}
			ch, err := install.Grant(cmd.Context(), dirs.Data, args[0], args[1:], cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			return printChange(cmd.OutOrStdout(), ch, "granted", o)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print the result as JSON")
	return cmd
}

// printChange reports a grant or revoke.
func printChange(w io.Writer, ch *install.Change, verb string, o *pluginsGrantOptions) error {
	if o.json {
		return writeJSON(w, ch)
	}
	if len(ch.Changed) == 0 {
		fmt.Fprintf(w, "%s: nothing changed\n", ch.Name)
	} else {
		fmt.Fprintf(w, "%s: %s %s\n", ch.Name, verb, joinCaps(ch.Changed))
	}
	_, err := fmt.Fprintf(w, "%s now holds: %s (from its next call, also in a running juju)\n", ch.Name, joinCaps(ch.Granted))
	return err
}

func joinCaps(cs []abi.Capability) string {
	if len(cs) == 0 {
		return "nothing"
	}
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = string(c)
	}
	return strings.Join(s, ", ")
}
