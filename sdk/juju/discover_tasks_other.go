//go:build !wasip1

package juju

// discoverTasksImport is nil natively: calls go to the test host.
func discoverTasksImport() func(uint64) uint64 { return nil }
