//go:build !wasip1

package juju

// lspImport is nil natively: calls go to the test host.
var lspImport func(uint64) uint64
