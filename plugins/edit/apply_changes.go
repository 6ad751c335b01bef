package edit

import (
	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// ApplyChangesArgs are the arguments of apply_changes.
type ApplyChangesArgs struct {
	PlanID string `json:"planId" jsonschema:"required" min:"1" desc:"The plan id preview_changes returned."`
}

func init() {
	juju.Tool("apply_changes", editTool("Apply changes",
		"Applies a plan made by preview_changes, all-or-nothing. If any file it touches changed since the preview, nothing is written and "+
			"the call fails with FILE_CHANGED: preview again. Journaled: rollback_changes undoes it.",
		abi.ChangeResult{}, true, false), applyChanges)
}

func applyChanges(_ *juju.Call, in ApplyChangesArgs) (*juju.Result, error) {
	res, err := juju.ApplyPlan(in.PlanID)
	if err != nil {
		return nil, err
	}
	return juju.Text(summary("Applied plan "+in.PlanID, res)).WithStructured(res), nil
}
