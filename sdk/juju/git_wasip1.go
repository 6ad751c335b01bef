//go:build wasip1

package juju

//go:wasmimport extism:host/user juju_git
func hostGit(uint64) uint64

func exchangeGit(fn string, frame []byte) ([]byte, error) { return exchangeWith(hostGit, fn, frame) }
