package main

import (
	"io"
	"log/slog"
	"os"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/internal/config"
	"github.com/jujutools/juju/internal/workspace"
)

// served is what a serving command (stdio, serve) opens before it
// serves: its logger, directories, settings and host.
type served struct {
	log      *slog.Logger
	dirs     config.Dirs
	settings config.Settings
	host     *host.Host
	close    func() // closes the host, then the log
}

// openServed resolves the settings of o and builds the host.
func openServed(o *stdioOptions, errw io.Writer) (*served, error) {
	log, closeLog, err := newLogger(errw, o.logFile, o.logLevel)
	if err != nil {
		return nil, err
	}
	w := &served{log: log}
	if err := w.open(o); err != nil {
		closeLog()
		return nil, err
	}
	w.close = func() {
		closeHost(w.host, log, shutdownGrace)
		closeLog()
	}
	return w, nil
}

func (w *served) open(o *stdioOptions) error {
	var err error
	if w.dirs, err = config.DefaultDirs(); err != nil {
		return err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	if w.settings, err = o.settings(w.dirs, cwd); err != nil {
		return err
	}
	cfg := hostConfig(w.settings, w.dirs, w.log)
	// The log is juju's record for the owner, like the audit log in the
	// state folder: a tool may neither rewrite it nor read the host paths
	// it names.
	cfg.Files = append(cfg.Files, workspace.OwnFiles(o.logFile)...)
	cfg.HiddenFiles = o.hiddenFiles
	w.host, err = host.New(cfg)
	return err
}
