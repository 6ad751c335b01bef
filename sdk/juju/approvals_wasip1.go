//go:build wasip1

package juju

//go:wasmimport extism:host/user juju_approval_status
func hostApprovalStatus(uint64) uint64

// approvalStatusImport is the import ApprovalStatus calls through.
var approvalStatusImport = hostApprovalStatus
