package edit

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// ChangeHistoryArgs are the arguments of change_history.
type ChangeHistoryArgs struct {
	ChangeID string `json:"changeId,omitempty" desc:"Show this change in full, with its diff."`
	Path     string `json:"path,omitempty" desc:"Only changes that touched this path."`
	Limit    int    `json:"limit,omitempty" min:"1" max:"200" desc:"How many changes to list, newest first (default 20)."`
}

func init() {
	juju.Tool("change_history", juju.ReadTool("Change history",
		"Lists the changes juju made to this workspace, newest first: id, time, which client, plugin and tool, the paths with lines added "+
			"and removed, and whether a change was rolled back. With changeId, one change with its unified diff. Use the ids with rollback_changes.",
		abi.HistoryResult{}), changeHistory)
}

func changeHistory(_ *juju.Call, in ChangeHistoryArgs) (*juju.Result, error) {
	h, err := juju.History(abi.HistoryRequest{ChangeID: in.ChangeID, Path: in.Path, Limit: in.Limit})
	if err != nil {
		return nil, err
	}
	if h.Changes == nil {
		h.Changes = []abi.ChangeInfo{}
	}
	var b strings.Builder
	if len(h.Changes) == 0 {
		b.WriteString("No change has been recorded in this workspace yet.\n")
	}
	for _, c := range h.Changes {
		fmt.Fprintf(&b, "%s  %s  %s", c.ID, c.Time, c.Tool)
		if c.Client != "" {
			fmt.Fprintf(&b, " (client %s)", c.Client)
		}
		if c.RolledBackBy != "" {
			fmt.Fprintf(&b, "  [rolled back by %s]", c.RolledBackBy)
		}
		if len(c.RollbackOf) > 0 {
			fmt.Fprintf(&b, "  [rollback of %s]", strings.Join(c.RollbackOf, ", "))
		}
		b.WriteByte('\n')
		writeFiles(&b, c.Files)
		writeDiff(&b, c.Diff, c.DiffCut)
	}
	if h.More {
		b.WriteString("(older changes left out; raise limit to see them)\n")
	}
	return juju.Text(b.String()).WithStructured(h), nil
}
