//go:build wasip1

package juju

import "github.com/jujutools/juju/sdk/abi"

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

// journalImport returns the import of a journal or state host function,
// or nil.
func journalImport(fn string) func(uint64) uint64 {
	switch fn {
	case abi.FnFSApply:
		return hostFSApply
	case abi.FnFSPlan:
		return hostFSPlan
	case abi.FnFSPlanApply:
		return hostFSPlanApply
	case abi.FnFSPlanDiscard:
		return hostFSPlanDiscard
	case abi.FnFSHistory:
		return hostFSHistory
	case abi.FnFSRollback:
		return hostFSRollback
	case abi.FnStateGet:
		return hostStateGet
	case abi.FnStatePut:
		return hostStatePut
	}
	return nil
}
