package juju

import "github.com/jujutools/juju/sdk/abi"

// Change builds a change of several operations that the host applies
// all-or-nothing, through its journal: every write is hash-checked,
// atomic, recorded and reversible (capability fs.write).
//
//	res, err := new(juju.Change).
//		Edit(abi.ChangeOp{Path: "main.go", OldString: "a", NewString: "b"}).
//		Write(abi.ChangeOp{Path: "NEWS"}, []byte("…")).
//		Apply()
type Change struct {
	req  abi.ChangeRequest
	body []byte
}

// Add appends an operation; content is the content of a write and must be
// nil for the other operations.
func (c *Change) Add(op abi.ChangeOp, content []byte) *Change {
	if op.Op == abi.OpWrite {
		op.Length = int64(len(content))
		c.body = append(c.body, content...)
	}
	c.req.Ops = append(c.req.Ops, op)
	return c
}

// Write appends a write of content to op.Path (op.Op is set for you).
func (c *Change) Write(op abi.ChangeOp, content []byte) *Change {
	op.Op = abi.OpWrite
	return c.Add(op, content)
}

// Edit appends an exact replacement in op.Path (op.Op is set for you).
func (c *Change) Edit(op abi.ChangeOp) *Change {
	op.Op = abi.OpEdit
	return c.Add(op, nil)
}

// Len is the number of operations so far.
func (c *Change) Len() int { return len(c.req.Ops) }

// Apply applies the change and returns what it did, with its change id.
func (c *Change) Apply() (*abi.ChangeResult, error) {
	c.req.DryRun = false
	res, _, err := roundTrip[abi.ChangeResult](hostFSApply, abi.FnFSApply, c.req, c.body)
	return res, err
}

// DryRun computes the change and its diff without writing anything.
func (c *Change) DryRun() (*abi.ChangeResult, error) {
	c.req.DryRun = true
	res, _, err := roundTrip[abi.ChangeResult](hostFSApply, abi.FnFSApply, c.req, c.body)
	return res, err
}

// Plan keeps the change unapplied under a plan id, for review; ApplyPlan
// applies it later if no file changed since.
func (c *Change) Plan() (*abi.PlanResult, error) {
	c.req.DryRun = false
	res, _, err := roundTrip[abi.PlanResult](hostFSPlan, abi.FnFSPlan, c.req, c.body)
	return res, err
}

// ApplyPlan applies a plan made by Change.Plan.
func ApplyPlan(planID string) (*abi.ChangeResult, error) {
	res, _, err := roundTrip[abi.ChangeResult](hostFSPlanApply, abi.FnFSPlanApply, abi.PlanRequest{PlanID: planID}, nil)
	return res, err
}

// DiscardPlan forgets a plan.
func DiscardPlan(planID string) error {
	_, _, err := roundTrip[abi.Status](hostFSPlanDiscard, abi.FnFSPlanDiscard, abi.PlanRequest{PlanID: planID}, nil)
	return err
}

// History lists the journal's changes, newest first (capability fs.read).
func History(req abi.HistoryRequest) (*abi.HistoryResult, error) {
	res, _, err := roundTrip[abi.HistoryResult](hostFSHistory, abi.FnFSHistory, req, nil)
	return res, err
}

// Rollback undoes a change, or every change after one (capability
// fs.write).
func Rollback(req abi.RollbackRequest) (*abi.ChangeResult, error) {
	res, _, err := roundTrip[abi.ChangeResult](hostFSRollback, abi.FnFSRollback, req, nil)
	return res, err
}

// StateGet reads a value of the plugin's own key-value space (capability
// state); found is false for a key never set.
func StateGet(key string) (value []byte, found bool, err error) {
	res, body, err := roundTrip[abi.StateResult](hostStateGet, abi.FnStateGet, abi.StateRequest{Key: key}, nil)
	if err != nil {
		return nil, false, err
	}
	return body, res.Found, nil
}

// StatePut sets a value of the plugin's key-value space; a nil value
// deletes the key.
func StatePut(key string, value []byte) error {
	_, _, err := roundTrip[abi.Status](hostStatePut, abi.FnStatePut, abi.StateRequest{Key: key, Delete: value == nil}, value)
	return err
}
