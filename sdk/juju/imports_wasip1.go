//go:build wasip1

package juju

// The host functions few plugins use, each with its own exchange so that
// its wasm import is linked into those plugins alone: a host without it
// still loads every other plugin.

//go:wasmimport extism:host/user juju_git
func hostGit(uint64) uint64

func exchangeGit(fn string, frame []byte) ([]byte, error) { return exchangeWith(hostGit, fn, frame) }

//go:wasmimport extism:host/user juju_discover_tasks
func hostDiscoverTasks(uint64) uint64

func exchangeDiscoverTasks(fn string, frame []byte) ([]byte, error) {
	return exchangeWith(hostDiscoverTasks, fn, frame)
}
