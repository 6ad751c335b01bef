//go:build !wasip1

package juju

import "github.com/jujutools/juju/sdk/abi"

// Built natively there are no wasm imports: each host function's import is
// a nil variable of the same name as in imports_wasip1.go, and every call
// goes to testHost instead.
var (
	hostLog, hostFSRead, hostFSReads, hostFSList, hostFSStat, hostFSGlob,
	hostFSApply, hostFSPlan, hostFSPlanApply, hostFSPlanDiscard, hostFSHistory, hostFSRollback,
	hostStateGet, hostStatePut,
	hostExec, hostExecShell, hostJob, hostGit,
	hostSearch, hostEnvironment, hostDiscoverTasks, hostApprovalStatus, hostLSP, hostFetch func(uint64) uint64
)

// testHost stands in for juju's host functions when the package is built
// natively, for its own tests; nil means there is no host.
var testHost func(fn string, frame []byte) []byte

// exchange hands a request frame for host function fn to testHost.
func exchange(_ func(uint64) uint64, fn string, header, body []byte) ([]byte, error) {
	if testHost == nil {
		return nil, errNoHost
	}
	return testHost(fn, abi.EncodeFrame(header, body)), nil
}
