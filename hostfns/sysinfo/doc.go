// Package sysinfo provides the juju_environment host function (no
// capability): the machine juju runs on (OS, architecture, kernel,
// distribution, shells), the programs found on PATH with their versions,
// and juju's own setup (version, trust mode, roots, sandbox setting and
// what works of it, deny and secret globs).
//
// The programs are probed on the host, so the plugin describing the
// environment needs no exec grant. Each known program is looked up on PATH
// and run once with its version flag, all in parallel, each under a short
// time limit, in a neutral folder (the system's temporary folder, never
// the workspace, so no project file can change what a probe runs), with an
// empty stdin and an environment holding only PATH, HOME and the
// toolchain variables a version flag may need. The answer is computed on
// the first call and kept for the life of the server.
package sysinfo
