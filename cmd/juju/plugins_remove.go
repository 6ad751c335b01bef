package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/host/install"
	"github.com/jujutools/juju/internal/config"
)

// pluginsRemoveOptions are the flags of juju plugins remove.
type pluginsRemoveOptions struct {
	json bool
}

func newPluginsRemoveCommand() *cobra.Command {
	o := &pluginsRemoveOptions{}
	cmd := &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove an installed plugin",
		Long: `Remove an installed plugin: its folder, manifest, wasm and grants, and the
state it kept in every workspace (a plugin installed under its name later
starts with none). Core plugins cannot be removed. A juju already running drops its tools at its next call
(and tells its client the tool list changed). The plugin's compiled code,
and that of any build no plugin uses any more, goes from the cache.`,
		Example: `  juju plugins remove rake`,
		Args:    argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dirs, err := config.DefaultDirs()
			if err != nil {
				return err
			}
			return runPluginsRemove(cmd, dirs, args[0], o)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print the result as JSON")
	return cmd
}

func runPluginsRemove(cmd *cobra.Command, dirs config.Dirs, name string, o *pluginsRemoveOptions) error {
	w := cmd.OutOrStdout()
	r, err := install.Remove(cmd.Context(), dirs.Data, dirs.Cache, dirs.Workspaces(), name, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	if o.json {
		return writeJSON(w, map[string]any{"name": name, "removed": true, "stateRemoved": r.StateRemoved, "cachePrunedBytes": r.CachePrunedBytes})
	}
	fmt.Fprintf(w, "removed %s\n", name)
	if r.StateRemoved > 0 {
		fmt.Fprintf(w, "  removed its state in %s\n", count(r.StateRemoved, "workspace"))
	}
	if r.CachePrunedBytes > 0 {
		fmt.Fprintf(w, "  removed %s of compiled code no plugin uses from the cache\n", humanBytes(r.CachePrunedBytes))
	}
	return nil
}
