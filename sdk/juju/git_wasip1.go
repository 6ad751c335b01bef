//go:build wasip1

package juju

//go:wasmimport extism:host/user juju_git
func hostGit(uint64) uint64

// gitImport is the juju_git import, referenced only from Git.
func gitImport() func(uint64) uint64 { return hostGit }
