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

// ApprovalInfo is one approval as a client sees it: Args are the call's
// arguments in short; Created and Decided are RFC 3339.
type ApprovalInfo struct {
	ID      string `json:"id" desc:"The approval id."`
	Tool    string `json:"tool" desc:"The tool called."`
	Args    string `json:"args" desc:"The call's arguments, in short."`
	State   string `json:"state" enum:"pending,approved,denied,used,expired" desc:"pending: the owner has not decided; approved: retry the same call to run it; denied: do not retry; used: the decision was acted on; expired: nobody decided in time."`
	Created string `json:"created" desc:"When the call was held (RFC 3339)."`
	Decided string `json:"decided,omitempty" desc:"When the owner decided (RFC 3339)."`
}

// ApprovalStatusResult lists approvals, newest first. approval_status
// returns it.
type ApprovalStatusResult struct {
	Status
	Approvals []ApprovalInfo `json:"approvals" desc:"Your approvals, newest first."`
}
