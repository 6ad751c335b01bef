//go:build wasip1

package juju

// The journal and state host functions are imported only by plugins that
// call their wrappers (see exchangeVia), so a plugin still runs on a juju
// that predates them.

//go:wasmimport extism:host/user juju_fs_apply
func hostFSApply(uint64) uint64

//go:wasmimport extism:host/user juju_fs_plan
func hostFSPlan(uint64) uint64

//go:wasmimport extism:host/user juju_fs_plan_apply
func hostFSPlanApply(uint64) uint64

//go:wasmimport extism:host/user juju_fs_plan_discard
func hostFSPlanDiscard(uint64) uint64

//go:wasmimport extism:host/user juju_fs_history
func hostFSHistory(uint64) uint64

//go:wasmimport extism:host/user juju_fs_rollback
func hostFSRollback(uint64) uint64

//go:wasmimport extism:host/user juju_state_get
func hostStateGet(uint64) uint64

//go:wasmimport extism:host/user juju_state_put
func hostStatePut(uint64) uint64

// The imports the wrappers of journal.go call through.
var (
	fsApplyImport       = hostFSApply
	fsPlanImport        = hostFSPlan
	fsPlanApplyImport   = hostFSPlanApply
	fsPlanDiscardImport = hostFSPlanDiscard
	fsHistoryImport     = hostFSHistory
	fsRollbackImport    = hostFSRollback
	stateGetImport      = hostStateGet
	statePutImport      = hostStatePut
)
