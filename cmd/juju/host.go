package main

import (
	"context"
	"log/slog"
	"os"
	"time"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/workspace"
)

// hostConfig turns the owner's settings into the host's configuration.
func hostConfig(s config.Settings, dirs config.Dirs, log *slog.Logger) host.Config {
	return host.Config{
		Roots:           s.Roots,
		Mode:            s.Mode,
		Sandbox:         s.Sandbox,
		AllowWebFetch:   s.AllowWebFetch,
		Deny:            s.Deny,
		Secrets:         s.Secrets,
		FetchAllow:      s.FetchAllow,
		BackgroundAfter: s.BackgroundAfter,
		ApprovalTimeout: s.ApprovalTimeout,
		JournalLimits:   workspace.JournalLimits(s),
		UnloadAfter:     s.UnloadAfter,
		StandbyIdle:     s.StandbyIdle,
		Dirs:            dirs,
		Version:         version,
		Logger:          log,
		LSPServers:      lspServers(dirs, log),
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
