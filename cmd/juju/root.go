package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
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
	stdout := &watchedWriter{w: out}
	root.SetOut(stdout)
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
	if cmd == nil {
		cmd = root
	}
	fmt.Fprintf(errw, "juju: %v\n", err)
	code := exitError
	var u usageError
	if errors.As(err, &u) {
		fmt.Fprintf(errw, "Run '%s --help' for usage.\n", cmd.CommandPath())
		code = exitUsage
	}
	// A script that asked for JSON reads one JSON value on stdout
	// whatever happens: the error too, unless the command already printed
	// its answer (doctor's report, verify's list, with their status 1).
	if !stdout.wrote && asksJSON(cmd, args) {
		writeJSON(out, jsonError{Error: jsonErrorBody{Message: err.Error(), Status: code}})
	}
	return code
}

// jsonError is what a command given --json prints on stdout when it fails.
type jsonError struct {
	Error jsonErrorBody `json:"error"`
}

type jsonErrorBody struct {
	Message string `json:"message"` // as juju: … says it on stderr
	Status  int    `json:"status"`  // the exit status: 1 failed, 2 a wrong command line
}

// asksJSON reports whether the command line asked cmd for JSON: cmd has
// --json and args turn it on, before any "--". The arguments are read
// again, since a command line that failed to parse may not have set it.
func asksJSON(cmd *cobra.Command, args []string) bool {
	if cmd.Flags().Lookup("json") == nil {
		return false
	}
	on := false
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "--json" {
			on = true
		} else if v, ok := strings.CutPrefix(a, "--json="); ok {
			b, err := strconv.ParseBool(v)
			on = err == nil && b
		}
	}
	return on
}

// watchedWriter notes whether anything was written to it.
type watchedWriter struct {
	w     io.Writer
	wrote bool
}

func (w *watchedWriter) Write(p []byte) (int, error) {
	w.wrote = w.wrote || len(p) > 0
	return w.w.Write(p)
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
