package edit

import (
	"strconv"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// RollbackChangesArgs are the arguments of rollback_changes.
type RollbackChangesArgs struct {
	ChangeID string `json:"changeId" jsonschema:"required" min:"1" desc:"The change id from change_history or from the tool that made the change (e.g. c000042)."`
	Scope    string `json:"scope,omitempty" enum:"change,since,after" default:"change" desc:"change: undo only this change; since: undo this change and every later one; after: undo every change after this one, keeping it."`
	Force    bool   `json:"force,omitempty" desc:"Overwrite files that changed since the change (by hand or by a later change) instead of failing with CONFLICT."`
}

func init() {
	juju.Tool("rollback_changes", editTool("Roll back changes",
		"Undoes a change recorded in the journal, or every change since or after one, restoring each file's old bytes, mode and existence "+
			"as one new change (which can itself be rolled back). If a file changed since (it no longer holds what the change left), the call "+
			"fails with CONFLICT naming it, unless force is set.",
		abi.ChangeResult{}, true, false), rollbackChanges)
}

func rollbackChanges(_ *juju.Call, in RollbackChangesArgs) (*juju.Result, error) {
	req := abi.RollbackRequest{ChangeID: in.ChangeID, Force: in.Force}
	switch in.Scope {
	case "after":
		req.After = true
	case "since":
		// c000042, or past a million changes d1000000, e10000000 …
		id := strings.ToLower(strings.TrimSpace(in.ChangeID))
		if id != "" && 'c' <= id[0] && id[0] <= 'q' {
			id = id[1:]
		}
		n, err := strconv.ParseUint(id, 10, 64)
		if err != nil || n == 0 {
			return nil, juju.Errorf(abi.InvalidArgument, "%q is not a change id; ids look like c000042 (see change_history)", in.ChangeID)
		}
		req.ChangeID, req.After = "c"+strconv.FormatUint(n-1, 10), true
	}
	res, err := juju.Rollback(req)
	if err != nil {
		return nil, err
	}
	return juju.Text(summary("Rolled back "+strings.Join(res.RolledBack, ", "), res)).WithStructured(res), nil
}
