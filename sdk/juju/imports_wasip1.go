//go:build wasip1

package juju

import "github.com/jujutools/juju/sdk/abi"

// juju's host functions, as wasm imports of module abi.HostNamespace. Each
// takes the offset of an Extism memory block holding a request frame and
// returns the offset of the block holding the response frame.
//
// Each is referenced by its wrapper alone, which hands it to roundTrip, and
// Go's linker keeps only what a plugin reaches: a plugin imports only the
// host functions it calls. (The Extism kernel's own imports are in
// memory_wasip1.go.)

//go:wasmimport extism:host/user juju_log
func hostLog(uint64) uint64

//go:wasmimport extism:host/user juju_fs_read
func hostFSRead(uint64) uint64

//go:wasmimport extism:host/user juju_fs_list
func hostFSList(uint64) uint64

//go:wasmimport extism:host/user juju_fs_stat
func hostFSStat(uint64) uint64

//go:wasmimport extism:host/user juju_fs_glob
func hostFSGlob(uint64) uint64

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

//go:wasmimport extism:host/user juju_exec
func hostExec(uint64) uint64

//go:wasmimport extism:host/user juju_exec_shell
func hostExecShell(uint64) uint64

//go:wasmimport extism:host/user juju_job
func hostJob(uint64) uint64

//go:wasmimport extism:host/user juju_git
func hostGit(uint64) uint64

//go:wasmimport extism:host/user juju_search
func hostSearch(uint64) uint64

//go:wasmimport extism:host/user juju_environment
func hostEnvironment(uint64) uint64

//go:wasmimport extism:host/user juju_discover_tasks
func hostDiscoverTasks(uint64) uint64

//go:wasmimport extism:host/user juju_approval_status
func hostApprovalStatus(uint64) uint64

//go:wasmimport extism:host/user juju_lsp
func hostLSP(uint64) uint64

//go:wasmimport extism:host/user juju_fetch
func hostFetch(uint64) uint64

// exchange sends a request frame through the import imp (host function fn)
// and returns the response frame.
func exchange(imp func(uint64) uint64, fn string, frame []byte) ([]byte, error) {
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

// release frees a kernel block worth freeing. Extism resets the kernel's
// memory before every call, so small blocks are left for that: each free
// is a call into the kernel, which costs more than a small block.
func release(offset uint64, n int) {
	if n >= 4<<10 {
		extismFree(offset)
	}
}
