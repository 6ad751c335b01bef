//go:build wasip1

package juju

// The fetch host function is imported only by plugins that call Fetch
// (see exchangeVia).

//go:wasmimport extism:host/user juju_fetch
func hostFetch(uint64) uint64

// fetchImport is the import Fetch calls through.
var fetchImport = hostFetch
