package juju

import "github.com/jujutools/juju/sdk/abi"

// ApprovalStatus lists the calling client's approvals (or one, by id): the
// calls juju held for the owner's approval and what became of them. It
// needs no capability.
func ApprovalStatus(req abi.ApprovalStatusRequest) (*abi.ApprovalStatusResult, error) {
	res, _, err := roundTrip[abi.ApprovalStatusResult](hostApprovalStatus, abi.FnApprovalStatus, req, nil)
	return res, err
}
