//go:build wasip1

package juju

// The lsp host function is imported only by plugins that call LSP (see
// exchangeVia).

//go:wasmimport extism:host/user juju_lsp
func hostLSP(uint64) uint64

// lspImport is the import LSP calls through.
var lspImport = hostLSP
