//go:build wasip1

package juju

// The search and environment host functions are imported only by plugins
// that call Search or Environment: they are reached through these
// functions, not through exchange's switch, so the linker leaves them out
// of every other plugin (a runtime that does not provide them can still
// run those).

//go:wasmimport extism:host/user juju_search
func hostSearch(uint64) uint64

//go:wasmimport extism:host/user juju_environment
func hostEnvironment(uint64) uint64

func exchangeSearch(fn string, frame []byte) ([]byte, error) {
	return callImport(fn, hostSearch, frame)
}

func exchangeEnvironment(fn string, frame []byte) ([]byte, error) {
	return callImport(fn, hostEnvironment, frame)
}
