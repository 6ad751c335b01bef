package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // the command failed
	exitUsage = 2 // the command line was wrong
)

// run executes one command line and returns the exit code. Errors go to
// errw, never to out.
func run(ctx context.Context, args []string, in io.Reader, out, errw io.Writer) int {
	root := newRootCommand()
	root.SetArgs(args)
	root.SetIn(in)
	root.SetOut(out)
	root.SetErr(errw)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	if errors.Is(err, syscall.EPIPE) {
		// The reader of stdout went away (juju tools | head): nothing
		// failed that the owner must hear of, as a program that dies of
		// SIGPIPE says nothing (juju ignores SIGPIPE, main.go).
		return exitError
	}
	fmt.Fprintf(errw, "juju: %v\n", err)
	var u usageError
	if errors.As(err, &u) {
		if cmd == nil {
			cmd = root
		}
		fmt.Fprintf(errw, "Run '%s --help' for usage.\n", cmd.CommandPath())
		return exitUsage
	}
	return exitError
}

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "juju",
		Short: "A local MCP tool host for coding agents",
		Long: `juju gives an MCP client (Claude Code, Codex CLI, Cursor, Claude Desktop …)
the tools of a coding agent on your workspace: read, search, edit, patch,
run commands, git, fetch. Every tool is a sandboxed WebAssembly plugin, and
juju keeps a safety floor of its own, whatever the client does: paths stay
inside the workspace, secrets are never readable, writes are journaled and
can be rolled back, and each plugin holds only the capabilities it was
granted.

Start with 'juju doctor' to see what this machine offers, 'juju tools' to
see the tools, then add 'juju stdio' to your MCP client.

Exit status: 0 on success, 1 when the command fails (or 'juju doctor' finds
a problem), 2 when the command line is wrong (an unknown command or flag, a
stray argument, a flag value juju does not take).`,
		Example: `  # Register juju with Claude Code, on the current project
  claude mcp add juju -- juju stdio

  # Check the installation
  juju doctor`,
		Args:                  cobra.ArbitraryArgs,
		RunE:                  runGroup,
		DisableFlagsInUseLine: true,
		SilenceUsage:          true,
		SilenceErrors:         true,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(
		newStdioCommand(),
		newServeCommand(),
		newTokenCommand(),
		newClientsCommand(),
		newToolsCommand(),
		newPluginsCommand(),
		newDoctorCommand(),
		newVersionCommand(),
		newApprovalsCommand(),
		newAuditCommand(),
		newSandboxHelperCommand(),
		newRollbackCommand(),
		newLSPCommand(),
	)
	return root
}

// usageError is a mistake on the command line (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// runGroup runs a command that only groups others: it shows the help, or
// refuses an unknown subcommand with suggestions.
func runGroup(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return cmd.Help()
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2
	}
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return usageError{errors.New(msg)}
}

// noArgs refuses positional arguments.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageError{fmt.Errorf("%s takes no arguments, got %q", cmd.CommandPath(), args[0])}
	}
	return nil
}
