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

// Change is one recorded change.
type Change struct {
	ID           string       `json:"id" desc:"The change id (pass it to rollback_changes)."`
	Time         string       `json:"time" desc:"When it was made (RFC 3339)."`
	Client       string       `json:"client,omitempty" desc:"The MCP client that asked for it."`
	Plugin       string       `json:"plugin,omitempty" desc:"The plugin that made it."`
	Tool         string       `json:"tool,omitempty" desc:"The tool that made it."`
	Files        []FileChange `json:"files" desc:"The paths it touched."`
	RolledBack   bool         `json:"rolledBack,omitempty" desc:"A later change undid it."`
	RolledBackBy string       `json:"rolledBackBy,omitempty" desc:"The change that undid it."`
	RollbackOf   []string     `json:"rollbackOf,omitempty" desc:"When it is a rollback: the changes it undid."`
	Diff         string       `json:"diff,omitempty" desc:"With changeId: the unified diff."`
}

// HistoryOutput is the structured content of change_history.
type HistoryOutput struct {
	Changes []Change `json:"changes" desc:"The changes, newest first."`
	More    bool     `json:"more,omitempty" desc:"Older changes were left out by limit."`
}

func init() {
	juju.Tool("change_history", juju.ReadTool("Change history",
		"Lists the changes juju made to this workspace, newest first: id, time, which client, plugin and tool, the paths with lines added "+
			"and removed, and whether a change was rolled back. With changeId, one change with its unified diff. Use the ids with rollback_changes.",
		HistoryOutput{}), changeHistory)
}

func changeHistory(_ *juju.Call, in ChangeHistoryArgs) (*juju.Result, error) {
	h, err := juju.History(abi.HistoryRequest{ChangeID: in.ChangeID, Path: in.Path, Limit: in.Limit})
	if err != nil {
		return nil, err
	}
	out := HistoryOutput{Changes: make([]Change, len(h.Changes)), More: h.More}
	var b strings.Builder
	if len(h.Changes) == 0 {
		b.WriteString("No change has been recorded in this workspace yet.\n")
	}
	for i, c := range h.Changes {
		out.Changes[i] = Change{ID: c.ID, Time: c.Time, Client: c.Client, Plugin: c.Plugin, Tool: c.Tool, Files: files(c.Files),
			RolledBack: c.RolledBack, RolledBackBy: c.RolledBackBy, RollbackOf: c.RollbackOf, Diff: c.Diff}
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
	return juju.Text(b.String()).WithStructured(out), nil
}
