//go:build !wasip1

package juju

// The journal and state imports are nil natively: calls go to the test host.
var fsApplyImport, fsPlanImport, fsPlanApplyImport, fsPlanDiscardImport,
	fsHistoryImport, fsRollbackImport, stateGetImport, statePutImport func(uint64) uint64
