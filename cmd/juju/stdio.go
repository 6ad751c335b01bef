package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/jujutools/juju/host/mcpserver"
	"github.com/jujutools/juju/host/plugin"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/sandbox"
)

// stdioOptions are the flags of juju stdio.
type stdioOptions struct {
	roots         []string
	mode          string
	sandbox       string
	allowWebFetch bool
	configFile    string
	logFile       string
	logLevel      string
	// hiddenFiles are files a confined command cannot read: juju serve's
	// --token-file.
	hiddenFiles []string

	// given reports whether the owner gave a flag; a flag not given leaves
	// the config file's value, or the default.
	given func(name string) bool
}

// shutdownGrace is how long juju waits, after SIGINT or SIGTERM, for the
// calls in flight to end, and then for the plugins to close.
const shutdownGrace = 3 * time.Second

func newStdioCommand() *cobra.Command {
	o := &stdioOptions{}
	cmd := &cobra.Command{
		Use:   "stdio",
		Short: "Serve MCP over stdin and stdout (what an MCP client runs)",
		Long: `Serve the tools over MCP on stdin and stdout. This is the command an MCP
client starts: stdout carries only JSON-RPC messages, and logs go to stderr
(or to --log-file). juju stops when the client closes stdin, or on SIGINT,
SIGTERM or SIGHUP.

Settings come from the flags, then the config file (config.toml in the
config directory, or --config FILE), then the defaults: the current folder
as the only root, mode edit, sandbox prefer, web fetch off.

Trust modes:
  inspect   every edit and every command waits for your approval
  edit      edits apply at once (journaled, reversible); commands wait
  trusted   nothing waits on juju's side (for clients that confirm every
            call themselves); the path policy and secret denial still hold`,
		Example: `  # Claude Code, on the current project
  claude mcp add juju -- juju stdio

  # Two workspace folders, the client confirms every call itself
  juju stdio --root ~/src/app --root ~/src/lib --mode trusted

  # Codex CLI (~/.codex/config.toml)
  [mcp_servers.juju]
  command = "juju"
  args = ["stdio", "--root", "/home/me/src/app"]`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.given = cmd.Flags().Changed
			gcPercent(startGCPercent)
			softMemoryLimit(stdioMemoryLimit)
			return runStdio(cmd.Context(), o, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	o.bind(cmd.Flags())
	return cmd
}

// stdioMemoryLimit is the base of the soft Go memory limit past which the
// server collects harder. Each loaded module adds twice its wasm to it
// (plugin.SetSoftMemoryLimit): the copy wazero keeps on the heap, and the
// collector's headroom over that. Plugin instances, compiled code and
// buffers come and go with each call, and with GOGC alone the heap doubles
// before a collection runs.
const stdioMemoryLimit = 64 << 20

// stdioGCPercent is the Go heap's growth, in percent of the live heap,
// before a collection, once the warm-up has loaded the plugins. Most of a
// session's live heap is then wazero's decoded modules (20–25 MB), which
// never become garbage; with Go's default of 100 the heap doubled them
// before collecting, and a session that had overviewed Go's tree held 10 MB
// more. Set from the start, it made the start 6 ms slower: the small heap
// of the first milliseconds was collected twice as often
// (docs/RATIONALE.md).
const stdioGCPercent = 50

// startGCPercent is the Go heap's growth, in percent of the live heap,
// before a collection while juju stdio or serve starts, until the warm-up
// has loaded the plugins (then stdioGCPercent, serveGCPercent): the heap
// of the first milliseconds is small and mostly garbage (4 MB, 1 MB of it
// live), and with Go's default of 100 it was collected before the answer
// to initialize, which waited for the collection's stops of the world
// and shared the 2 cores with its marking (RATIONALE). The warm-up's
// compilations collect at compileGCPercent anyway, the same.
const startGCPercent = 400

// serveGCPercent is juju serve's GC percent once the warm-up is done: Go's
// default, with its many clients and instances under a larger limit.
const serveGCPercent = 100

// gcPercent sets percent unless the owner set GOGC.
func gcPercent(percent int) {
	if _, set := os.LookupEnv("GOGC"); !set {
		plugin.SetGCPercent(percent) // kept for after a compilation running now
	}
}

// softMemoryLimit sets a soft memory limit of base plus twice the wasm of
// the modules loaded (plugin.SetSoftMemoryLimit), unless the owner set
// GOMEMLIMIT. It is a soft limit: past it the collector runs more often,
// nothing fails.
func softMemoryLimit(base int64) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		plugin.SetSoftMemoryLimit(base)
	}
}

// bind defines the flags on f.
func (o *stdioOptions) bind(f *pflag.FlagSet) {
	f.StringArrayVar(&o.roots, "root", nil, "add `DIR` as a workspace root the tools may reach; repeat for more (default: the current folder)")
	f.StringVar(&o.mode, "mode", "", "set the trust `MODE`: inspect, edit or trusted (default: the config file's, else edit)")
	f.StringVar(&o.sandbox, "sandbox", "", "set the command sandbox `MODE`: off, prefer or require (default: the config file's, else prefer)")
	f.BoolVar(&o.allowWebFetch, "allow-web-fetch", false, "let fetch_url reach the internet (default: the config file's, else off)")
	addConfigFlag(f, &o.configFile)
	f.StringVar(&o.logFile, "log-file", "", "append logs to `FILE` instead of stderr")
	f.StringVar(&o.logLevel, "log-level", "info", "log `LEVEL`: debug, info, warn or error")
}

// addConfigFlag adds --config, shared by the commands that read the file.
func addConfigFlag(f *pflag.FlagSet, dst *string) {
	f.StringVar(dst, "config", "", "read settings from `FILE` (default: config.toml in the config directory; see juju doctor)")
}

// settings resolves the flags over the config file over the defaults.
func (o *stdioOptions) settings(dirs config.Dirs, cwd string) (config.Settings, error) {
	given := o.given
	if given == nil {
		given = func(string) bool { return false }
	}
	// A flag's value juju does not know is a mistake on the command line
	// (exit 2), as --log-level's is; the same value in the config file is
	// the file's (1).
	if given("mode") && !config.Mode(o.mode).Valid() {
		return config.Settings{}, usageError{fmt.Errorf("--mode %q must be one of inspect, edit, trusted", o.mode)}
	}
	if given("sandbox") && !sandbox.Mode(o.sandbox).Valid() {
		return config.Settings{}, usageError{fmt.Errorf("--sandbox %q must be one of %s", o.sandbox, sandbox.ModeList())}
	}
	file, err := loadConfig(o.configFile, dirs)
	if err != nil {
		return config.Settings{}, err
	}
	var flags config.Flags
	if given("root") {
		flags.Roots = o.roots
	}
	if given("mode") {
		m := config.Mode(o.mode)
		flags.Mode = &m
	}
	if given("sandbox") {
		s := sandbox.Mode(o.sandbox)
		flags.Sandbox = &s
	}
	if given("allow-web-fetch") {
		flags.AllowWebFetch = &o.allowWebFetch
	}
	return config.Resolve(flags, file, cwd)
}

// loadConfig reads the file named by --config (which must exist), or the
// default one (which may not).
func loadConfig(path string, dirs config.Dirs) (*config.File, error) {
	if path != "" {
		return config.Load(path)
	}
	return config.LoadDefault(dirs)
}

// runStdio builds the host and serves MCP on in and out until in ends or
// ctx is done.
func runStdio(ctx context.Context, o *stdioOptions, in io.Reader, out, errw io.Writer) error {
	w, err := openServed(o, errw)
	if err != nil {
		return err
	}
	defer w.close()
	w.log.Info("juju serving over stdio", "version", version, "roots", w.settings.Roots, "mode", w.settings.Mode,
		"sandbox", w.settings.Sandbox, "config", w.settings.ConfigFile, "tools", len(w.host.Tools()))
	go func() {
		select {
		case <-w.host.Warmed():
			gcPercent(stdioGCPercent)
			if w.host.CacheProblem() == nil {
				pruneCacheOnce(w.dirs, w.log)
			}
		case <-ctx.Done():
		}
	}()
	return serve(ctx, w.log, shutdownGrace, func(ctx context.Context) error {
		return mcpserver.ServeStdio(ctx, w.host, in, out, slog.NewLogLogger(w.log.Handler(), slog.LevelError))
	})
}

// serve runs the server until it returns, or until ctx is done and the
// calls in flight had grace to end. The end of input and a signal are clean
// exits.
func serve(ctx context.Context, log *slog.Logger, grace time.Duration, fn func(context.Context) error) error {
	done := make(chan error, 1)
	go func() { done <- fn(ctx) }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		select {
		case err = <-done:
		case <-time.After(grace):
			log.Warn("calls still running at shutdown; exiting anyway")
		}
	}
	if err == nil || errors.Is(err, io.EOF) || ctx.Err() != nil && errors.Is(err, context.Canceled) {
		log.Info("juju stopped")
		return nil
	}
	return err
}

var logLevels = map[string]slog.Level{
	"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError,
}

// newLogger logs to errw, or appends to file when one is named.
func newLogger(errw io.Writer, file, level string) (*slog.Logger, func(), error) {
	lv, ok := logLevels[level]
	if !ok {
		return nil, nil, usageError{fmt.Errorf("--log-level %q must be debug, info, warn or error", level)}
	}
	w, closeFn := errw, func() {}
	if file != "" {
		f, err := openLogFile(file)
		if err != nil {
			return nil, nil, fmt.Errorf("log file: %w", err)
		}
		w, closeFn = f, func() { f.Close() }
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: lv, ReplaceAttr: boundValue})), closeFn, nil
}
