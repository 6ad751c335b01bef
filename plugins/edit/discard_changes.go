package edit

import "github.com/jujutools/juju/sdk/juju"

// DiscardChangesArgs are the arguments of discard_changes.
type DiscardChangesArgs struct {
	PlanID string `json:"planId" jsonschema:"required" min:"1" desc:"The plan id preview_changes returned."`
}

// DiscardOutput is the structured content of discard_changes.
type DiscardOutput struct {
	PlanID    string `json:"planId" desc:"The plan that was dropped."`
	Discarded bool   `json:"discarded" desc:"Always true on success."`
}

func init() {
	juju.Tool("discard_changes", editTool("Discard changes",
		"Drops a plan made by preview_changes without applying it. Nothing in the workspace changes.",
		DiscardOutput{}, false, false), discardChanges)
}

func discardChanges(_ *juju.Call, in DiscardChangesArgs) (*juju.Result, error) {
	if err := juju.DiscardPlan(in.PlanID); err != nil {
		return nil, err
	}
	return juju.Text("Discarded plan " + in.PlanID + "; nothing was written.\n").WithStructured(DiscardOutput{PlanID: in.PlanID, Discarded: true}), nil
}
