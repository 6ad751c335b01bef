package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// HomeEnv names the environment variable that, when set, puts all of juju's
// directories under one folder.
const HomeEnv = "JUJU_HOME"

// appName is the folder juju's directories are named after.
const appName = "juju"

// DefaultDirs names juju's directories for the current user: under
// $JUJU_HOME when it is set, else XDG (Linux and other Unix systems) or the
// platform's folders (macOS). Each must be private (checkPrivate): juju
// refuses to start on a folder another user owns or can write to, and
// makes only a folder that would otherwise go straight into one every user
// can write to (a JUJU_HOME in /tmp).
func DefaultDirs() (Dirs, error) {
	home, _ := os.UserHomeDir() // "" is handled: JUJU_HOME may still name the folder
	d, err := dirsFor(runtime.GOOS, os.Getenv, home)
	if err != nil {
		return Dirs{}, err
	}
	for _, dir := range d.All() {
		if err := checkPrivate(dir); err != nil {
			return Dirs{}, fmt.Errorf("juju's folder %s is not private: %w; set %s (or XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_CACHE_HOME, XDG_DATA_HOME) to a folder of your own, or make the folders yours and writable by you alone", dir, err, HomeEnv)
		}
	}
	return d, nil
}

// errNoHome reports that no home folder is known to put the directories in.
var errNoHome = errors.New("cannot find the home folder: set HOME or " + HomeEnv)

// dirsFor is DefaultDirs with the platform, environment and home folder
// given, so every layout can be tested on any platform.
func dirsFor(goos string, getenv func(string) string, home string) (Dirs, error) {
	if h := getenv(HomeEnv); h != "" {
		abs, err := filepath.Abs(h)
		if err != nil {
			return Dirs{}, fmt.Errorf("%s: %w", HomeEnv, err)
		}
		return Dirs{
			Config: filepath.Join(abs, "config"),
			State:  filepath.Join(abs, "state"),
			Cache:  filepath.Join(abs, "cache"),
			Data:   filepath.Join(abs, "data"),
		}, nil
	}
	if goos == "darwin" {
		if home == "" {
			return Dirs{}, errNoHome
		}
		support := filepath.Join(home, "Library", "Application Support", appName)
		return Dirs{
			Config: support,
			State:  filepath.Join(support, "state"),
			Cache:  filepath.Join(home, "Library", "Caches", appName),
			Data:   support,
		}, nil
	}
	// XDG Base Directory Specification: a relative value is invalid and
	// ignored.
	xdg := func(env string, fallback ...string) (string, error) {
		if v := getenv(env); filepath.IsAbs(v) {
			return filepath.Join(v, appName), nil
		}
		if home == "" {
			return "", errNoHome
		}
		return filepath.Join(append([]string{home}, append(fallback, appName)...)...), nil
	}
	var d Dirs
	var err error
	for _, f := range []struct {
		dst      *string
		env      string
		fallback []string
	}{
		{&d.Config, "XDG_CONFIG_HOME", []string{".config"}},
		{&d.State, "XDG_STATE_HOME", []string{".local", "state"}},
		{&d.Cache, "XDG_CACHE_HOME", []string{".cache"}},
		{&d.Data, "XDG_DATA_HOME", []string{".local", "share"}},
	} {
		if *f.dst, err = xdg(f.env, f.fallback...); err != nil {
			return Dirs{}, err
		}
	}
	return d, nil
}
