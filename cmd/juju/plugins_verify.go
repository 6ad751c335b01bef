package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/host/install"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/visible"
)

// pluginsVerifyOptions are the flags of juju plugins verify.
type pluginsVerifyOptions struct {
	json bool
}

// errVerifyFailed is the exit of a verify that found a broken plugin.
var errVerifyFailed = errors.New("some installed plugins failed verification")

func newPluginsVerifyCommand() *cobra.Command {
	o := &pluginsVerifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify [NAME]",
		Short: "Re-check installed plugins against their pins",
		Long: `Re-read, re-validate and re-hash every installed plugin (or the one named):
the manifest must be valid and unchanged since install, the wasm must match
the sha256 pinned at install, and no tool name may collide with a core or
another installed plugin. The exit status is 1 when any plugin fails; juju
refuses to load such a plugin anyway, and 'juju plugins list' says why.`,
		Example: `  juju plugins verify
  juju plugins verify rake --json`,
		Args: argsBetween(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dirs, err := config.DefaultDirs()
			if err != nil {
				return err
			}
			name := ""
			if len(args) == 1 {
				name = args[0]
			}
			return runPluginsVerify(cmd.OutOrStdout(), dirs, name, o)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print a JSON array: name, version, sha256, ok, error")
	return cmd
}

func runPluginsVerify(w io.Writer, dirs config.Dirs, name string, o *pluginsVerifyOptions) error {
	reports, err := install.Verify(dirs.Data, name)
	if err != nil {
		return err
	}
	failed := false
	for _, r := range reports {
		failed = failed || !r.OK
	}
	if o.json {
		if err := writeJSON(w, reports); err != nil {
			return err
		}
	} else {
		if len(reports) == 0 {
			fmt.Fprintln(w, "no plugins are installed")
		}
		for _, r := range reports {
			if r.OK {
				fmt.Fprintf(w, "ok      %s %s (sha256 %s)\n", visible.String(r.Name), visible.String(r.Version), r.SHA256)
			} else {
				fmt.Fprintf(w, "FAILED  %s: %s\n", visible.String(r.Name), visible.String(r.Error))
			}
		}
	}
	if failed {
		return errVerifyFailed
	}
	return nil
}
