//go:build !wasip1

package juju

// The search and environment imports are nil natively: calls go to the
// test host.
var searchImport, environmentImport func(uint64) uint64
