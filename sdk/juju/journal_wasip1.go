//go:build wasip1

package juju

import "github.com/jujutools/juju/sdk/abi"

// The journal and state host functions, as wasm imports. Each wrapper
// reaches its import through a function of its own (send…), so a plugin
// imports only the host functions it calls and still runs on a juju that
// predates the others.

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

func sendFSApply(f []byte) ([]byte, error)     { return sendVia(hostFSApply, abi.FnFSApply, f) }
func sendFSPlan(f []byte) ([]byte, error)      { return sendVia(hostFSPlan, abi.FnFSPlan, f) }
func sendFSPlanApply(f []byte) ([]byte, error) { return sendVia(hostFSPlanApply, abi.FnFSPlanApply, f) }
func sendFSPlanDiscard(f []byte) ([]byte, error) {
	return sendVia(hostFSPlanDiscard, abi.FnFSPlanDiscard, f)
}
func sendFSHistory(f []byte) ([]byte, error)  { return sendVia(hostFSHistory, abi.FnFSHistory, f) }
func sendFSRollback(f []byte) ([]byte, error) { return sendVia(hostFSRollback, abi.FnFSRollback, f) }
func sendStateGet(f []byte) ([]byte, error)   { return sendVia(hostStateGet, abi.FnStateGet, f) }
func sendStatePut(f []byte) ([]byte, error)   { return sendVia(hostStatePut, abi.FnStatePut, f) }

// sendVia sends a request frame through the import imp and returns the
// response frame, as exchange does for the fs functions.
func sendVia(imp func(uint64) uint64, fn string, frame []byte) ([]byte, error) {
	req := store(frame)
	off := imp(req)
	release(req, len(frame))
	if off == 0 {
		return nil, Errorf(abi.Internal, "the host gave no answer to %s", fn)
	}
	b := readBlock(off)
	release(off, len(b))
	return b, nil
}
