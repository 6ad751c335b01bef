//go:build !wasip1

package juju

// The exec and git imports are nil natively: calls go to the test host.
var execImport, execShellImport, jobImport, gitImport func(uint64) uint64
