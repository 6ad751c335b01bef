package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/token"
)

// tokenOptions are the flags of juju token.
type tokenOptions struct {
	tokenFile string
}

func newTokenCommand() *cobra.Command {
	o := &tokenOptions{}
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Print the local token HTTP clients send to juju serve",
		Long: `Print the local bearer token that local HTTP clients send to juju serve
(Authorization: Bearer <token>). It is made on first use, 32 random bytes,
and kept in the file token in the config directory (mode 0600), or in
--token-file. Anyone who has it can use juju serve as you: keep it out of
repositories and shared configs, and pass it as $(juju token) where you can.
To change it, delete the file and restart juju serve.`,
		Example: `  claude mcp add --transport http juju http://127.0.0.1:7777/mcp \
    --header "Authorization: Bearer $(juju token)"`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runToken(o, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&o.tokenFile, "token-file", "", "read the token from `FILE`, creating it (mode 0600) if needed in a folder that exists, outside the current folder's workspace (default: token in the config directory)")
	return cmd
}

// runToken prints the token, creating it if needed.
func runToken(o *tokenOptions, out io.Writer) error {
	dirs, err := config.DefaultDirs()
	if err != nil {
		return err
	}
	path := tokenPath(o.tokenFile, dirs)
	if o.tokenFile != "" {
		// A new token is not made where juju serve, started here without
		// --root, would refuse it: in the current folder, its one root (the
		// config file names none). One that exists is printed wherever it
		// is (juju serve --root elsewhere took it, and prints this command).
		var roots []string
		if _, err := os.Lstat(path); err != nil {
			if cwd, err := os.Getwd(); err == nil {
				roots = []string{cwd}
			}
		}
		if err := checkTokenFile(path, roots); err != nil {
			return err
		}
	}
	tok, err := token.LoadOrCreate(path)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(out, tok)
	return err
}
