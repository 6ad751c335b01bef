//go:build wasip1

package juju

// The search and environment host functions are imported only by plugins
// that call their wrappers (see exchangeVia).

//go:wasmimport extism:host/user juju_search
func hostSearch(uint64) uint64

//go:wasmimport extism:host/user juju_environment
func hostEnvironment(uint64) uint64

// The imports the wrappers of search.go call through.
var (
	searchImport      = hostSearch
	environmentImport = hostEnvironment
)
