package edit

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// maxTextDiff is how much of a diff the text result shows; the structured
// result holds the whole (bounded by the host).
const maxTextDiff = 8 << 10

// maxListedPaths is the most paths the result of a change lists, in its
// text and its structured content alike: a change may touch 1,000 paths,
// and each of a result's text and structured content stays under 100,000
// bytes (SPEC §4). The text counts the rest.
const maxListedPaths = 50

// summary is the text result of a change: one line per path, the change
// id, then the diff (cut for the text; whole in the structured content).
// verb says what was done ("Edited a.txt"); for a dry run, a sentence of
// what would be done.
// It cuts r.Files to the paths it lists.
func summary(verb string, r *abi.ChangeResult) string {
	var b strings.Builder
	if r.DryRun {
		fmt.Fprintf(&b, "Dry run, nothing was written. %s\nIt would touch %d path(s):\n", verb, len(r.Files))
	} else if r.ChangeID == "" {
		fmt.Fprintf(&b, "%s: nothing to change (the files already hold that content).\n", verb)
		return b.String()
	} else {
		fmt.Fprintf(&b, "%s: change %s, %d path(s):\n", verb, r.ChangeID, len(r.Files))
	}
	writeListed(&b, &r.Files, r.ChangeID)
	writeOffsets(&b, r.HunkOffsets, r.HunkOffsetsMore)
	if r.ChangeID != "" {
		fmt.Fprintf(&b, "Undo with rollback_changes changeId=%s.\n", r.ChangeID)
	}
	writeDiff(&b, r.Diff, r.DiffCut)
	return b.String()
}

// writeListed writes the first maxListedPaths of *files, cuts *files to
// them, and says how many are left out and where to see them all.
func writeListed(b *strings.Builder, files *[]abi.FileChange, changeID string) {
	fs := *files
	if len(fs) <= maxListedPaths {
		writeFiles(b, fs)
		return
	}
	writeFiles(b, fs[:maxListedPaths])
	if changeID != "" {
		fmt.Fprintf(b, "  … and %d more paths: change_history changeId=%s lists them all\n", len(fs)-maxListedPaths, changeID)
	} else {
		fmt.Fprintf(b, "  … and %d more paths (not listed: one result holds %d)\n", len(fs)-maxListedPaths, maxListedPaths)
	}
	*files = fs[:maxListedPaths]
}

// writeOffsets says which hunks of a patch applied at another line than
// their header names, with git apply's words ("Hunk #2 succeeded at 14
// (offset 3 lines)"): the file changed since the patch was made, and a
// hunk found elsewhere is worth a look.
func writeOffsets(b *strings.Builder, offs []abi.HunkOffset, more int) {
	for _, o := range offs {
		lines := "lines"
		if o.Offset == 1 || o.Offset == -1 {
			lines = "line"
		}
		fmt.Fprintf(b, "  hunk #%d of %s applied at line %d of the file as it was, not at line %d as its header says (offset %d %s)\n", o.Hunk, juju.PathText(o.Path), o.Line, o.Line-o.Offset, o.Offset, lines)
	}
	if more > 0 {
		fmt.Fprintf(b, "  … and %d more hunks at other lines than their headers name\n", more)
	}
}

func writeFiles(b *strings.Builder, fs []abi.FileChange) {
	for _, f := range fs {
		fmt.Fprintf(b, "  %-11s %s", f.Action, juju.PathText(f.Path))
		if f.Added+f.Removed > 0 {
			fmt.Fprintf(b, " (+%d -%d)", f.Added, f.Removed)
		}
		if f.Replacements > 0 {
			fmt.Fprintf(b, ", %d replacement(s)", f.Replacements)
		}
		if f.OtherLinks == 1 {
			b.WriteString("; its 1 other name (a hard link) keeps the old content")
		} else if f.OtherLinks > 1 {
			fmt.Fprintf(b, "; its %d other names (hard links) keep the old content", f.OtherLinks)
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
