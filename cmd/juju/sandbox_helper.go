package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/jujutools/juju/sandbox"
)

// newSandboxHelperCommand is the hidden helper the command sandbox
// re-executes inside bubblewrap: it checks the sandbox's pinned binds,
// applies Landlock to its own process and execs the command
// (sandbox.HelperMain). It is not for people; its command line is
// sandbox.HelperArgs.
func newSandboxHelperCommand() *cobra.Command {
	return &cobra.Command{
		Use:                sandbox.HelperCommand + " --abi N [--write DIR]... [--pin PATH]... [--net] -- PROGRAM ARGS...",
		Short:              "Check the sandbox and run a command under Landlock (used by the command sandbox)",
		Hidden:             true,
		DisableFlagParsing: true,
		Args:               cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			// HelperMain only returns on failure: the command was not run.
			os.Exit(sandbox.HelperMain(args, cmd.ErrOrStderr()))
			return nil
		},
	}
}
