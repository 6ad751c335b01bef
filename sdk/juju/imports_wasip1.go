//go:build wasip1

package juju

import "github.com/jujutools/juju/sdk/abi"

// juju's host functions, as wasm imports of module abi.ChannelNamespace
// (ABI 2). Each takes the length of the request frame the plugin has just
// written to stdout and returns the length of the response frame it then
// reads from stdin (see memory_wasip1.go).
//
// Each is referenced by its wrapper alone, which hands it to roundTrip, and
// Go's linker keeps only what a plugin reaches: a plugin imports only the
// host functions it calls.

//go:wasmimport juju:channel juju_log
func hostLog(uint64) uint64

//go:wasmimport juju:channel juju_fs_read
func hostFSRead(uint64) uint64

//go:wasmimport juju:channel juju_fs_reads
func hostFSReads(uint64) uint64

//go:wasmimport juju:channel juju_fs_list
func hostFSList(uint64) uint64

//go:wasmimport juju:channel juju_fs_stat
func hostFSStat(uint64) uint64

//go:wasmimport juju:channel juju_fs_glob
func hostFSGlob(uint64) uint64

//go:wasmimport juju:channel juju_fs_apply
func hostFSApply(uint64) uint64

//go:wasmimport juju:channel juju_fs_plan
func hostFSPlan(uint64) uint64

//go:wasmimport juju:channel juju_fs_plan_apply
func hostFSPlanApply(uint64) uint64

//go:wasmimport juju:channel juju_fs_plan_discard
func hostFSPlanDiscard(uint64) uint64

//go:wasmimport juju:channel juju_fs_history
func hostFSHistory(uint64) uint64

//go:wasmimport juju:channel juju_fs_rollback
func hostFSRollback(uint64) uint64

//go:wasmimport juju:channel juju_state_get
func hostStateGet(uint64) uint64

//go:wasmimport juju:channel juju_state_put
func hostStatePut(uint64) uint64

//go:wasmimport juju:channel juju_exec
func hostExec(uint64) uint64

//go:wasmimport juju:channel juju_exec_shell
func hostExecShell(uint64) uint64

//go:wasmimport juju:channel juju_job
func hostJob(uint64) uint64

//go:wasmimport juju:channel juju_git
func hostGit(uint64) uint64

//go:wasmimport juju:channel juju_search
func hostSearch(uint64) uint64

//go:wasmimport juju:channel juju_environment
func hostEnvironment(uint64) uint64

//go:wasmimport juju:channel juju_discover_tasks
func hostDiscoverTasks(uint64) uint64

//go:wasmimport juju:channel juju_approval_status
func hostApprovalStatus(uint64) uint64

//go:wasmimport juju:channel juju_lsp
func hostLSP(uint64) uint64

//go:wasmimport juju:channel juju_fetch
func hostFetch(uint64) uint64

// exchange sends a request frame of header and body through the import
// imp (host function fn) and returns the response frame.
func exchange(imp func(uint64) uint64, fn string, header, body []byte) ([]byte, error) {
	if n := frameSize(header, body); n > abi.MaxFrame {
		return nil, refused(fn, n)
	}
	n, ok := sendFrame(header, body)
	if !ok {
		return nil, refused(fn, n)
	}
	n = imp(n)
	if n == 0 {
		return nil, Errorf(abi.Internal, "the host gave no answer to %s", fn)
	}
	b, ok := receive(n)
	if !ok {
		return nil, Errorf(abi.Internal, "the host's answer to %s was cut short", fn)
	}
	return b, nil
}
