package journal

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"
	"unsafe"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/aymanbagabas/go-udiff/lcs"

	"github.com/jujutools/juju/internal/journal/text"
)

// maxDiffInput bounds the size of a file the diff is computed for; a
// larger one is summarised.
const maxDiffInput = 1 << 20

// fileDiff is the unified diff of one slot and its added and removed line
// counts. Without render only the counts are computed: a diff past the
// result's cut is never shown, and rendering it cost most of a large
// change's dry run (docs/RATIONALE.md).
func fileDiff(s *slot, render bool) (string, int, int) {
	switch {
	case s.after.Kind == kindDir && s.before.Kind != kindDir:
		return fmt.Sprintf("new folder %s\n", text.QuotePath(s.display)), 0, 0
	case s.before.Kind == kindDir && s.after.Kind != kindDir && s.after.Kind != kindFile:
		return fmt.Sprintf("deleted folder %s\n", text.QuotePath(s.display)), 0, 0
	case s.before.Kind == kindSymlink || s.after.Kind == kindSymlink:
		return fmt.Sprintf("symlink %s: %s → %s\n", text.QuotePath(s.display), linkText(s.before), linkText(s.after)), 0, 0
	}
	var old, new []byte
	if s.before.Kind == kindFile {
		old = s.pre
	}
	if s.after.Kind == kindFile {
		new = s.post
	}
	// A change of the executable bit is written as git writes it, so the
	// diff applies with git apply and apply_patch alike.
	header := ""
	from, to := text.QuotePath("a/"+gitName(s.display)), text.QuotePath("b/"+gitName(s.display))
	gitLine := fmt.Sprintf("diff --git %s %s\n", from, to)
	if s.before.Kind == kindFile && s.after.Kind == kindFile && gitMode(s.before.Mode) != gitMode(s.after.Mode) {
		header = fmt.Sprintf("%sold mode %s\nnew mode %s\n", gitLine, gitMode(s.before.Mode), gitMode(s.after.Mode))
	}
	if s.before.Kind != kindFile && s.after.Kind == kindFile && gitMode(s.after.Mode) == "100755" {
		header = fmt.Sprintf("%snew file mode 100755\n", gitLine) // made executable
	}
	old, new = asText(old), asText(new)
	if bytes.HasPrefix(old, bom) && bytes.HasPrefix(new, bom) {
		// A byte-order mark kept is not shown, as read_file does not
		// show it and edits and patches match without it: the diff is
		// one apply_patch takes back.
		old, new = old[len(bom):], new[len(bom):]
	}
	if binary(old) || binary(new) || len(old) > maxDiffInput || len(new) > maxDiffInput {
		if bytes.Equal(old, new) {
			return header, 0, 0
		}
		return header + fmt.Sprintf("Binary or large file %s changed (%d → %d bytes)\n", text.QuotePath(s.display), len(old), len(new)), 0, 0
	}
	if s.before.Kind != kindFile {
		from = "/dev/null"
	}
	if s.after.Kind != kindFile {
		to = "/dev/null"
	}
	d, added, removed := textDiff(from, to, borrow(old), borrow(new), render)
	switch {
	case d != "" || !render:
	case s.before.Kind != kindFile && header != "": // an empty executable file
	case s.before.Kind != kindFile: // an empty new file, as git writes it
		d = fmt.Sprintf("%snew file mode %s\n", gitLine, gitMode(s.after.Mode))
	case s.after.Kind != kindFile: // an empty file deleted
		d = fmt.Sprintf("%sdeleted file mode %s\n", gitLine, gitMode(s.before.Mode))
	}
	return header + d, added, removed
}

// gitName is display as a diff names it after its a/ or b/: a path of a
// root other than the first, shown absolute, without its leading slash,
// as git diff --no-index writes one ("a/home/me/lib/x.go", not
// "a//home/me/lib/x.go"). apply_patch reads such a name back as that
// absolute path (draft.patchName).
func gitName(display string) string {
	return strings.TrimPrefix(display, "/")
}

// gitMode is the mode git records for a file: executable or not.
func gitMode(m fs.FileMode) string {
	if m&0o100 != 0 {
		return "100755"
	}
	return "100644"
}

// textDiff is the unified diff of old and new (only when render) and the
// lines it adds and removes, counted from the edits the diff is made of:
// the same numbers as its + and - lines, without writing them out.
func textDiff(from, to, old, new string, render bool) (string, int, int) {
	a, offsets := splitLines(old)
	b, _ := splitLines(new)
	diffs := lcs.DiffLines(a, b)
	added, removed := 0, 0
	for _, d := range diffs {
		added += d.ReplEnd - d.ReplStart
		removed += d.End - d.Start
	}
	if !render || len(diffs) == 0 {
		return "", added, removed
	}
	// The edits udiff.Lines makes of these diffs, so the text is
	// udiff.Unified's.
	edits := make([]udiff.Edit, len(diffs))
	for i, d := range diffs {
		edits[i] = udiff.Edit{Start: offsets[d.Start], End: offsets[d.End], New: strings.Join(b[d.ReplStart:d.ReplEnd], "")}
	}
	u, err := udiff.ToUnified(from, to, old, edits, udiff.DefaultContextLines)
	if err != nil { // the edits come from old: it cannot happen
		return fmt.Sprintf("%s changed (its diff failed: %v)\n", to, err), added, removed
	}
	return u, added, removed
}

// borrow is b as a string without a copy, for textDiff alone: a change's
// contents are not written while its diff is made, and the diff keeps
// none of them (udiff writes the lines it shows into a new string).
// Copying them was 200 KB of garbage for each file of 100 KB, under juju
// stdio's soft memory limit.
func borrow(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// splitLines is s cut after each newline, with a last line without one,
// and the offset each line starts at, then len(s): the lines udiff diffs.
func splitLines(s string) ([]string, []int) {
	n := strings.Count(s, "\n") + 1
	lines, offsets := make([]string, 0, n), make([]int, 1, n+1)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n') + 1
		if i == 0 {
			i = len(s)
		}
		lines = append(lines, s[:i])
		offsets = append(offsets, offsets[len(offsets)-1]+i)
		s = s[i:]
	}
	return lines, offsets
}

// linkText is a link's target, quoted as a path is (a newline in it
// would start a line of its own in the diff), or the kind of what is
// there instead.
func linkText(img image) string {
	if img.Kind == kindSymlink {
		return text.QuotePath(img.Target)
	}
	return img.Kind
}

// bom is the UTF-8 byte-order mark.
var bom = []byte("\xef\xbb\xbf")

// asText is b, or its UTF-8 text when b is UTF-16 that edits read as
// text: a diff shows the lines an edit matched, and apply_patch takes it
// back.
func asText(b []byte) []byte {
	if u, _, ok := text.DecodeUTF16(b); ok {
		return []byte(u)
	}
	return b
}

func binary(b []byte) bool {
	if len(b) > 8<<10 {
		b = b[:8<<10]
	}
	return bytes.IndexByte(b, 0) >= 0
}

// diffOf joins the diffs of the steps, cut at max bytes, and sets where
// each step's begins in it (recs[i].DiffAt: a step past the cut begins at
// the end).
func diffOf(steps []*slot, recs []fileRec, max int) (string, bool) {
	var b strings.Builder
	cut := false
	for i, s := range steps {
		d, added, removed := fileDiff(s, !cut)
		recs[i].Added, recs[i].Removed, recs[i].DiffAt = added, removed, b.Len()
		if cut {
			continue
		}
		if b.Len()+len(d) > max {
			room := max - b.Len()
			if room > 0 {
				cutAt := strings.LastIndexByte(d[:room], '\n') + 1
				b.WriteString(d[:cutAt])
			}
			cut = true
			continue
		}
		b.WriteString(d)
	}
	return b.String(), cut
}
