// Command juju is a local MCP tool host: it gives an MCP client (Claude
// Code, Codex CLI, Cursor, Claude Desktop …) the tools of a coding agent on
// the owner's workspace, run as sandboxed WebAssembly plugins behind a path
// policy, secret denial and capability grants.
//
// This package parses flags and the config file, turns them into the
// host's immutable configuration, and nothing else: the work happens in
// host/, hostfns/ and sandbox/. docs/CLI.md is the reference of every
// command and flag.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// version is set at link time: go build -ldflags "-X main.version=1.2.3".
var version = "dev"

func main() {
	// A client that closes juju's stderr must not kill it on the next log
	// line (Go dies of SIGPIPE on fds 1 and 2): juju would exit without
	// closing the host, and its command jobs would outlive it.
	signal.Ignore(syscall.SIGPIPE)
	// A terminal or ssh session that closes sends SIGHUP: juju closes as
	// for SIGTERM, killing its jobs and removing their logs, rather than
	// die of it and leave them. SIGQUIT keeps Go's meaning, a dump of
	// every goroutine for a juju that hangs (see RATIONALE.md).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		<-ctx.Done()
		stop() // a second signal ends the process at once
	}()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
