package main

import (
	"log/slog"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/lspconfig"
)

func newLSPCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Register the language servers behind the semantic tools",
		Long: `The semantic tools (go_to_definition, find_references, find_symbol,
document_symbols, get_diagnostics) ask a language server when one is
registered for the file's language, and fall back to a heuristic symbol
index otherwise. juju starts a registered server on the first call about a
file of its language, one per workspace root, and stops it when it exits.

Registrations live in lsp.toml in the config directory (see juju doctor),
never in a workspace: a language server is a program juju runs with your
rights, outside the command sandbox, so only you name one.`,
		Example: `  juju lsp add gopls --command gopls --languages go --root-markers go.work,go.mod
  juju lsp add pyright --command "pyright-langserver --stdio" --languages python
  juju lsp list
  juju lsp remove pyright`,
		Args:                  cobra.ArbitraryArgs,
		RunE:                  runGroup,
		DisableFlagsInUseLine: true,
	}
	cmd.AddCommand(newLSPAddCommand(), newLSPListCommand(), newLSPRemoveCommand())
	return cmd
}

// lspServers loads the owner's registrations for the host. A file that does
// not decode is logged and ignored (juju doctor reports it): the other tools
// keep working, and the semantic tools use the heuristic index.
func lspServers(dirs config.Dirs, log *slog.Logger) []lspconfig.Server {
	servers, err := lspconfig.Load(dirs.Config)
	if err != nil {
		log.Warn("language server registrations ignored", "err", err)
		return nil
	}
	return servers
}
