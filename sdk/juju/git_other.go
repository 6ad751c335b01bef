//go:build !wasip1

package juju

// gitImport is nil natively: calls go to the test host.
func gitImport() func(uint64) uint64 { return nil }
