//go:build !wasip1

package juju

// The fetch import is nil natively: calls go to the test host.
var fetchImport func(uint64) uint64
