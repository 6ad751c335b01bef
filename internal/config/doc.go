// Package config holds the owner's settings: the trust mode and sandbox
// values, juju's own directories, and the config file.
//
// # Directories
//
// DefaultDirs names the four directories juju keeps its own data in: config
// (config.toml, the local token, language servers), state (journals, audit,
// todos, approvals, per workspace), cache (compiled plugins) and data
// (installed plugins). They follow XDG on Linux and the other Unix systems
// ($XDG_CONFIG_HOME/juju, $XDG_STATE_HOME/juju, $XDG_CACHE_HOME/juju,
// $XDG_DATA_HOME/juju, each defaulting under the home folder) and the
// platform's folders on macOS (~/Library/Application Support/juju,
// ~/Library/Caches/juju). The JUJU_HOME environment variable, when set, puts
// all four under one folder (JUJU_HOME/config, /state, /cache, /data), which
// keeps a test or a second installation apart from the owner's.
//
// # The config file
//
// The config file is TOML (config.toml in the config directory, or a file
// named on the command line). It is decoded strictly: a key juju does not
// know, or a known key spelt with other capitals, is an error that names the
// key and its line, and so is a value out of range. Every error wraps
// ErrInvalid.
//
// # Precedence
//
// Resolve merges command-line flags over the file over the defaults into a
// Settings value, which the command line turns into the host's configuration
// and which nothing changes afterwards.
package config
