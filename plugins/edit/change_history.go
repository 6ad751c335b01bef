package edit

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// ChangeHistoryArgs are the arguments of change_history.
type ChangeHistoryArgs struct {
	ChangeID string `json:"changeId,omitempty" desc:"Show this change in full, with its diff."`
	Path     string `json:"path,omitempty" desc:"Only changes that touched this path."`
	Limit    int    `json:"limit,omitempty" min:"1" max:"200" desc:"How many changes to list, newest first (default 20); a result is also cut before it reaches about 90 KB."`
	Offset   int    `json:"offset,omitempty" min:"0" desc:"Without changeId: how many of the newest changes to skip; with changeId: how many of its paths to skip. Pass the nextOffset of a cut result to read on."`
}

// History is change_history's structured content: the journal's changes,
// cut to what one result holds, without their diffs (the text shows a
// change's diff).
type History struct {
	abi.HistoryResult
	Truncated  bool     `json:"truncated,omitempty" desc:"The changes (or, with changeId, its paths) stop at the size cap: read on with offset nextOffset."`
	NextOffset int      `json:"nextOffset,omitempty" desc:"The offset to pass to read on, when there is more."`
	PathsCut   []string `json:"pathsCut,omitempty" desc:"Changes listed with only their first paths: ask for one with changeId to see them all."`
	DiffBytes  int      `json:"diffBytes,omitempty" desc:"With changeId: the size of the change's diff, which the text shows."`
}

// maxHistory bounds the text of change_history and, apart, its structured
// content (SPEC §4: each under 100,000 bytes); listPaths is how many paths
// of each change a list shows, and maxHistoryDiff how much of a change's
// diff the text shows.
const (
	maxHistory     = 90_000
	listPaths      = 10
	maxHistoryDiff = 60_000
)

func init() {
	juju.Tool("change_history", juju.ReadTool("Change history",
		"Lists the changes juju made to this workspace, newest first: id, time, which client, plugin and tool, the paths with lines added "+
			"and removed, and whether a change was rolled back. With changeId, one change with all its paths and its unified diff. "+
			"A long result is cut and offset reads on. Use the ids with rollback_changes.",
		History{}), changeHistory)
}

func changeHistory(_ *juju.Call, in ChangeHistoryArgs) (*juju.Result, error) {
	req := abi.HistoryRequest{ChangeID: in.ChangeID, Path: in.Path, Limit: in.Limit}
	if in.ChangeID == "" {
		req.Offset = in.Offset
	}
	h, err := juju.History(req)
	if err != nil {
		return nil, err
	}
	if h.Changes == nil {
		h.Changes = []abi.ChangeInfo{}
	}
	out := &History{HistoryResult: *h}
	var text string
	if in.ChangeID != "" && len(h.Changes) == 1 {
		text = oneChange(out, in.Offset)
	} else {
		offset := in.Offset
		if in.ChangeID == "" && offset > 0 && len(h.Changes) == 0 {
			// Nothing after the newest offset changes: say whether there
			// were any at all, rather than suggest there were.
			if first, err := juju.History(abi.HistoryRequest{Path: in.Path, Limit: 1}); err == nil && len(first.Changes) == 0 {
				offset = 0
			}
		}
		text = listChanges(out, in.Path, offset)
	}
	return juju.Text(text).WithStructured(out), nil
}

// listChanges renders the changes of a list (of those that touched path,
// when given), newest first, each with its first paths, until the text or
// the structured content reaches the cap.
func listChanges(h *History, path string, offset int) string {
	var b strings.Builder
	if len(h.Changes) == 0 {
		switch {
		case path != "" && offset > 0:
			fmt.Fprintf(&b, "No changes that touched %s after the newest %d that did; call change_history without offset to list those, or without path to list every change.\n", abi.Quote(path), offset)
		case path != "":
			fmt.Fprintf(&b, "No change recorded in this workspace touched %s; call change_history without path to list every change.\n", abi.Quote(path))
		case offset > 0:
			fmt.Fprintf(&b, "No changes after the newest %d.\n", offset)
		case h.Earlier != "":
			fmt.Fprintf(&b, "The journal holds no change now: %s.\n", h.Earlier)
			return b.String()
		default:
			b.WriteString("No change has been recorded in this workspace yet.\n")
		}
	}
	kept := h.Changes[:0:0]
	structured := 0
	for _, c := range h.Changes {
		var cb strings.Builder
		writeHeader(&cb, c)
		total := max(len(c.Files), c.FilesTotal)
		if more := total - listPaths; more > 0 {
			c.Files = c.Files[:min(listPaths, len(c.Files))]
			writeFiles(&cb, c.Files)
			fmt.Fprintf(&cb, "  … and %d more paths: change_history changeId=%s lists them all\n", more, c.ID)
		} else {
			writeFiles(&cb, c.Files)
		}
		c.Diff = ""
		n := jsonSize(c)
		if b.Len()+cb.Len() > maxHistory || structured+n > maxHistory {
			h.Truncated = true
			break
		}
		if len(c.Files) < total {
			h.PathsCut = append(h.PathsCut, c.ID)
		}
		b.WriteString(cb.String())
		structured += n
		kept = append(kept, c)
	}
	h.Changes = kept
	switch {
	case h.Truncated:
		h.NextOffset = offset + len(kept)
		fmt.Fprintf(&b, "[Showing %d changes, the most one result holds. Call change_history with offset %d for older ones.]\n", len(kept), h.NextOffset)
	case h.More:
		h.NextOffset = offset + len(kept)
		fmt.Fprintf(&b, "(older changes left out: call change_history with offset %d, or raise limit)\n", h.NextOffset)
	case h.Earlier != "":
		fmt.Fprintf(&b, "(no older change is in the journal: %s)\n", h.Earlier)
	}
	return b.String()
}

// oneChange renders one change: its paths from offset, until the cap, and
// its diff (with offset 0 only).
func oneChange(h *History, offset int) string {
	c := &h.Changes[0]
	diff := c.Diff
	h.DiffBytes, c.Diff = len(diff), ""
	if offset > 0 {
		diff = ""
	}
	if len(diff) > maxHistoryDiff {
		diff = diff[:strings.LastIndexByte(diff[:maxHistoryDiff], '\n')+1]
	}
	var b strings.Builder
	writeHeader(&b, *c)
	files := c.Files[min(offset, len(c.Files)):]
	room := maxHistory - len(diff) - b.Len()
	structured := jsonSize(*c) - jsonSize(c.Files)
	shown := 0
	for _, f := range files {
		var fb strings.Builder
		writeFiles(&fb, []abi.FileChange{f})
		n := jsonSize(f) + 1
		if fb.Len() > room-200 || structured+n > maxHistory {
			break
		}
		b.WriteString(fb.String())
		room -= fb.Len()
		structured += n
		shown++
	}
	total := len(c.Files)
	c.Files = files[:shown]
	if next := offset + shown; next < total {
		h.Truncated, h.NextOffset = true, next
		fmt.Fprintf(&b, "[Showing paths %d to %d of %d. Call change_history with changeId %s and offset %d for the rest.]\n",
			offset+1, next, total, c.ID, next)
	}
	switch {
	case h.DiffBytes == 0:
	case offset > 0:
		fmt.Fprintf(&b, "(the diff, %d bytes, is shown with offset 0)\n", h.DiffBytes)
	default:
		b.WriteString("\n" + diff)
		if len(diff) < h.DiffBytes {
			fmt.Fprintf(&b, "[diff cut at %d of %d bytes; read_file shows the files as they are now]\n", len(diff), h.DiffBytes)
		} else if c.DiffCut {
			b.WriteString("[diff cut by the journal's bound; read_file shows the files as they are now]\n")
		}
	}
	return b.String()
}

// writeHeader writes a change's first line.
func writeHeader(b *strings.Builder, c abi.ChangeInfo) {
	fmt.Fprintf(b, "%s  %s  %s", c.ID, c.Time, c.Tool)
	if c.Client != "" {
		fmt.Fprintf(b, " (client %s)", juju.LineText(c.Client))
	}
	if c.RolledBackBy != "" {
		fmt.Fprintf(b, "  [rolled back by %s]", c.RolledBackBy)
	}
	if len(c.RollbackOf) > 0 {
		fmt.Fprintf(b, "  [rollback of %s]", strings.Join(c.RollbackOf, ", "))
	}
	b.WriteByte('\n')
}

// jsonSize is the size of v in the structured content.
func jsonSize(v any) int {
	raw, _ := json.Marshal(v)
	return len(raw)
}
