package main

import (
	"fmt"
	"io"
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/lspconfig"
)

// lspAddOptions are the flags of juju lsp add.
type lspAddOptions struct {
	command     string
	languages   string
	rootMarkers string
	initOptions string
	replace     bool
	json        bool
}

func newLSPAddCommand() *cobra.Command {
	o := &lspAddOptions{}
	cmd := &cobra.Command{
		Use:   "add NAME --command CMD --languages LANG,...",
		Short: "Register a language server",
		Long: `Register a language server under NAME. --command is the program and its
arguments, split as a shell would split them but never run by a shell; the
server must speak LSP over stdin and stdout. --languages names the
languages it serves (` + lspconfig.KnownLanguages() + `).
--root-markers names files whose folder, the nearest above a file, is the
server's root for it (one server per root), in order of priority: the
nearest folder holding the first, else the second, and so on (go.work,go.mod
gives every module of a go.work one gopls); without them, or when none is
found, the workspace root is. --init-options is JSON sent as the server's
initializationOptions.`,
		Example: `  juju lsp add gopls --command gopls --languages go --root-markers go.work,go.mod \
      --init-options '{"verboseWorkDoneProgress": true}'
  juju lsp add pyright --command "pyright-langserver --stdio" --languages python \
      --root-markers pyrightconfig.json,pyproject.toml,setup.py
  juju lsp add tsserver --command "typescript-language-server --stdio" \
      --languages typescript,javascript --root-markers tsconfig.json,jsconfig.json,package.json
  juju lsp add rust-analyzer --command rust-analyzer --languages rust --root-markers Cargo.toml
  juju lsp add clangd --command clangd --languages c,cpp --root-markers compile_commands.json,.clangd`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dirs, err := config.DefaultDirs()
			if err != nil {
				return err
			}
			return runLSPAdd(cmd.OutOrStdout(), cmd.ErrOrStderr(), dirs, args[0], o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.command, "command", "", "the server's command line `CMD`: the program and its arguments (required)")
	f.StringVar(&o.languages, "languages", "", "the languages `LANG,...` it serves, separated by commas (required)")
	f.StringVar(&o.rootMarkers, "root-markers", "", "the file names `NAME,...` that mark a server root, separated by commas")
	f.StringVar(&o.initOptions, "init-options", "", "`JSON` object sent as initializationOptions")
	f.BoolVar(&o.replace, "replace", false, "replace a registration of the same name")
	f.BoolVar(&o.json, "json", false, "print the registration as JSON")
	return cmd
}

func runLSPAdd(w, errw io.Writer, dirs config.Dirs, name string, o *lspAddOptions) error {
	if o.command == "" || o.languages == "" {
		return usageError{fmt.Errorf("--command and --languages are required")}
	}
	argv, err := lspconfig.SplitCommand(o.command)
	if err != nil {
		return usageError{err}
	}
	s := lspconfig.Server{
		Name: name, Command: argv, Languages: lspconfig.SplitList(o.languages),
		RootMarkers: lspconfig.SplitList(o.rootMarkers), InitOptions: o.initOptions,
	}
	if err := s.Validate(); err != nil {
		return usageError{err} // a name, language or option juju does not take
	}
	if err := lspconfig.Add(dirs.Config, s, o.replace); err != nil {
		return err
	}
	if o.json {
		return writeJSON(w, newLSPEntry(s))
	}
	fmt.Fprintf(w, "registered %s for %s\n", name, o.languages)
	if _, err := exec.LookPath(argv[0]); err != nil {
		fmt.Fprintf(errw, "juju: warning: %s is not on PATH now; install it before a semantic call needs it\n", argv[0])
	}
	return nil
}
