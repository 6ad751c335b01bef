package edit

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
)

// maxTextDiff is how much of a diff the text result shows; the structured
// result holds the whole (bounded by the host).
const maxTextDiff = 8 << 10

// FileChange is what a change did, or would do, to one path.
type FileChange struct {
	Path         string `json:"path" desc:"The path, relative to the first root."`
	Action       string `json:"action" enum:"created,modified,deleted,dir-created,dir-deleted" desc:"What happens to the path."`
	SHA256Before string `json:"sha256Before,omitempty" desc:"SHA-256 of the file before the change."`
	SHA256After  string `json:"sha256After,omitempty" desc:"SHA-256 of the file after the change; pass it as expectedSha256 to a later edit."`
	Mode         string `json:"mode,omitempty" desc:"The file's permissions, e.g. -rw-r--r--."`
	Added        int    `json:"added" desc:"Lines added."`
	Removed      int    `json:"removed" desc:"Lines removed."`
	Replacements int    `json:"replacements,omitempty" desc:"Replacements made in this file."`
}

// ChangeOutput is the structured content of the tools that change files.
type ChangeOutput struct {
	ChangeID   string       `json:"changeId,omitempty" desc:"The id of the recorded change (empty for a dry run); undo it with rollback_changes."`
	DryRun     bool         `json:"dryRun,omitempty" desc:"Nothing was written: this is what the change would do."`
	Files      []FileChange `json:"files" desc:"Each path the change touches."`
	Diff       string       `json:"diff" desc:"Unified diff of the change."`
	DiffCut    bool         `json:"diffCut,omitempty" desc:"The diff was cut at the host's bound."`
	RolledBack []string     `json:"rolledBack,omitempty" desc:"For a rollback: the changes it undid."`
}

func changeOutput(r *abi.ChangeResult) ChangeOutput {
	return ChangeOutput{ChangeID: r.ChangeID, DryRun: r.DryRun, Files: files(r.Files), Diff: r.Diff, DiffCut: r.DiffCut, RolledBack: r.RolledBack}
}

func files(in []abi.FileChange) []FileChange {
	out := make([]FileChange, len(in))
	for i, f := range in {
		out[i] = FileChange(f)
	}
	return out
}

// summary is the text result of a change: one line per path, the change
// id, then the diff (cut for the text; whole in the structured content).
func summary(verb string, r *abi.ChangeResult) string {
	var b strings.Builder
	if r.DryRun {
		fmt.Fprintf(&b, "Dry run, nothing was written. %s would touch %d path(s):\n", verb, len(r.Files))
	} else if r.ChangeID == "" {
		fmt.Fprintf(&b, "%s: nothing to change (the files already hold that content).\n", verb)
		return b.String()
	} else {
		fmt.Fprintf(&b, "%s: change %s, %d path(s):\n", verb, r.ChangeID, len(r.Files))
	}
	writeFiles(&b, r.Files)
	if r.ChangeID != "" {
		fmt.Fprintf(&b, "Undo with rollback_changes changeId=%s.\n", r.ChangeID)
	}
	writeDiff(&b, r.Diff, r.DiffCut)
	return b.String()
}

func writeFiles(b *strings.Builder, fs []abi.FileChange) {
	for _, f := range fs {
		fmt.Fprintf(b, "  %-11s %s", f.Action, f.Path)
		if f.Added+f.Removed > 0 {
			fmt.Fprintf(b, " (+%d -%d)", f.Added, f.Removed)
		}
		if f.Replacements > 0 {
			fmt.Fprintf(b, ", %d replacement(s)", f.Replacements)
		}
		b.WriteByte('\n')
	}
}

func writeDiff(b *strings.Builder, diff string, cut bool) {
	if diff == "" {
		return
	}
	b.WriteByte('\n')
	if len(diff) > maxTextDiff {
		i := strings.LastIndexByte(diff[:maxTextDiff], '\n') + 1
		b.WriteString(diff[:i])
		fmt.Fprintf(b, "[diff cut at %d of %d bytes; the structured result holds the rest]\n", i, len(diff))
		return
	}
	b.WriteString(diff)
	if cut {
		b.WriteString("[diff cut by the host's bound]\n")
	}
}
