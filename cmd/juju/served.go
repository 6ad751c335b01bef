package main

import (
	"io"
	"log/slog"
	"os"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/internal/config"
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
	w.host, err = host.New(hostConfig(w.settings, w.dirs, w.log))
	return err
}
