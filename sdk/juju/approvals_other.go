//go:build !wasip1

package juju

// approvalStatusImport is nil natively: calls go to the test host.
var approvalStatusImport func(uint64) uint64
