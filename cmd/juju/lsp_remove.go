package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/lspconfig"
)

// lspRemoveOptions are the flags of juju lsp remove.
type lspRemoveOptions struct {
	json bool
}

func newLSPRemoveCommand() *cobra.Command {
	o := &lspRemoveOptions{}
	cmd := &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove a language server registration",
		Long: `Remove the registration called NAME. A juju already running keeps the
servers it started until it exits; the next juju starts no such server.`,
		Example: `  juju lsp remove pyright`,
		Args:    argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dirs, err := config.DefaultDirs()
			if err != nil {
				return err
			}
			return runLSPRemove(cmd.OutOrStdout(), dirs, args[0], o)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print the result as JSON")
	return cmd
}

func runLSPRemove(w io.Writer, dirs config.Dirs, name string, o *lspRemoveOptions) error {
	if err := lspconfig.Remove(dirs.Config, name); err != nil {
		return err
	}
	if o.json {
		return writeJSON(w, map[string]any{"name": name, "removed": true})
	}
	_, err := fmt.Fprintf(w, "removed %s\n", name)
	return err
}
