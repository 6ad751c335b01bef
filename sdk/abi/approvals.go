package abi

// Approvals host function: what is pending, approved or denied for the
// calling client. It needs no capability, and shows only the approvals of
// the client that calls it.
const FnApprovalStatus = "juju_approval_status" // ApprovalStatusRequest → ApprovalStatusResult

// ApprovalStatusRequest asks for one approval by id, or (ID empty) every
// recent one of the calling client.
type ApprovalStatusRequest struct {
	ID string `json:"id,omitempty"`
}

// ApprovalInfo is one approval as a client sees it.
type ApprovalInfo struct {
	ID      string `json:"id"`
	Tool    string `json:"tool"`
	Args    string `json:"args"`  // the arguments in short
	State   string `json:"state"` // pending, approved, denied, used, expired
	Created string `json:"created"`
	Decided string `json:"decided,omitempty"`
}

// ApprovalStatusResult lists approvals, newest first.
type ApprovalStatusResult struct {
	Status
	Approvals []ApprovalInfo `json:"approvals"`
}
