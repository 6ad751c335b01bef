package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/policy"
	"github.com/jujutools/juju/internal/workspace"
)

// hostConfig turns the owner's settings into the host's configuration.
func hostConfig(s config.Settings, dirs config.Dirs, log *slog.Logger) host.Config {
	env := trimPath(s.Roots, log)
	return host.Config{
		CommandEnv:            env,
		Roots:                 s.Roots,
		Mode:                  s.Mode,
		Sandbox:               s.Sandbox,
		AllowWebFetch:         s.AllowWebFetch,
		Deny:                  s.Deny,
		Secrets:               s.Secrets,
		FetchAllow:            s.FetchAllow,
		BackgroundAfter:       s.BackgroundAfter,
		ApprovalTimeout:       s.ApprovalTimeout,
		TerminalApprovalsOnly: s.TerminalApprovalsOnly,
		JournalLimits:         workspace.JournalLimits(s),
		UnloadAfter:           s.UnloadAfter,
		StandbyIdle:           s.StandbyIdle,
		Dirs:                  dirs,
		Files:                 workspace.OwnFiles(s.ConfigFile),
		Version:               version,
		Logger:                log,
		LSPServers:            lspServers(dirs, log),
	}
}

// openCatalog loads the catalog (core and installed plugins) with the
// default settings over the current folder, for the commands that only
// show it. Nothing is compiled.
func openCatalog(log *slog.Logger) (*host.Host, error) {
	dirs, err := config.DefaultDirs()
	if err != nil {
		return nil, err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	s, err := config.Resolve(config.Flags{}, nil, cwd)
	if err != nil {
		return nil, err
	}
	return host.New(hostConfig(s, dirs, log))
}

// withCatalog opens the catalog, runs fn on it and closes it again.
func withCatalog(fn func(*host.Host) error) error {
	h, err := openCatalog(quietLogger())
	if err != nil {
		return err
	}
	defer closeHost(h, quietLogger(), shutdownGrace)
	return fn(h)
}

// quietLogger drops everything: the catalog commands print their own output.
func quietLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// closeHost closes the host, waiting up to grace for compilations in
// progress (they cannot be interrupted); past grace the host is left open,
// since the process is about to exit.
func closeHost(h *host.Host, log *slog.Logger, grace time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := h.Close(ctx); err != nil {
		log.Debug("closing the host", "err", err)
	}
}

// trimPath takes the folders inside the roots out of juju's own PATH and
// returns the environment as juju started, for the commands it confines.
// juju's PATH finds the programs it runs outside any sandbox — bubblewrap,
// git, ripgrep, language servers — and a confined command may write
// anywhere in the roots: a bwrap or gopls it put in ~/.local/bin, with the
// home folder a root, would run with the owner's full rights.
func trimPath(roots []string, log *slog.Logger) []string {
	env := os.Environ()
	var real []string
	for _, r := range roots {
		if abs, err := filepath.Abs(r); err == nil {
			real = append(real, abs)
			if rr, err := filepath.EvalSymlinks(abs); err == nil {
				real = append(real, rr)
			}
		}
	}
	var kept, dropped []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if insideAny(d, real) {
			dropped = append(dropped, d)
		} else {
			kept = append(kept, d)
		}
	}
	if len(dropped) > 0 {
		os.Setenv("PATH", strings.Join(kept, string(filepath.ListSeparator)))
		log.Info("folders inside the roots are left out of the PATH juju looks up its own programs on (commands still get them)", "folders", dropped)
	}
	return env
}

// insideAny reports whether the PATH entry d lies inside one of roots, by
// its path or where it leads; a relative entry counts as inside (it names
// a folder of the current one, a root).
func insideAny(d string, roots []string) bool {
	if d == "" || !filepath.IsAbs(d) {
		return true
	}
	paths := []string{filepath.Clean(d)}
	if r, err := filepath.EvalSymlinks(d); err == nil {
		paths = append(paths, r)
	}
	for _, p := range paths {
		for _, r := range roots {
			if policy.Within(p, r) {
				return true
			}
		}
	}
	return false
}
