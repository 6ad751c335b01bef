package main

import (
	"errors"
	"testing"

	"github.com/jujutools/juju/host"
	"github.com/jujutools/juju/host/core"
	"github.com/jujutools/juju/internal/config"
)

// jujuHome points juju's directories at a fresh folder for one test.
func jujuHome(t *testing.T) config.Dirs {
	t.Helper()
	t.Setenv(config.HomeEnv, t.TempDir())
	d, err := config.DefaultDirs()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// catalog loads the real catalog, skipping the test while the core plugins
// are not built into the test binary (the Makefile builds them first).
func catalog(t *testing.T) *host.Host {
	t.Helper()
	jujuHome(t)
	t.Chdir(t.TempDir())
	h, err := openCatalog(quietLogger())
	if errors.Is(err, core.ErrNotBuilt) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeHost(h, quietLogger(), shutdownGrace) })
	return h
}
