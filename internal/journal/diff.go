package journal

import (
	"bytes"
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/jujutools/juju/internal/journal/text"
)

// maxDiffInput bounds the size of a file the diff is computed for; a
// larger one is summarised.
const maxDiffInput = 1 << 20

// fileDiff is the unified diff of one slot and its added and removed line
// counts.
func fileDiff(s *slot) (string, int, int) {
	switch {
	case s.after.Kind == kindDir && s.before.Kind != kindDir:
		return fmt.Sprintf("new folder %s\n", s.display), 0, 0
	case s.before.Kind == kindDir && s.after.Kind != kindDir && s.after.Kind != kindFile:
		return fmt.Sprintf("deleted folder %s\n", s.display), 0, 0
	case s.before.Kind == kindSymlink || s.after.Kind == kindSymlink:
		return fmt.Sprintf("symlink %s: %s → %s\n", s.display, linkText(s.before), linkText(s.after)), 0, 0
	}
	var old, new []byte
	if s.before.Kind == kindFile {
		old = s.pre
	}
	if s.after.Kind == kindFile {
		new = s.post
	}
	header := ""
	if s.before.Kind == kindFile && s.after.Kind == kindFile && s.before.Mode != s.after.Mode {
		header = fmt.Sprintf("mode %s → %s\n", s.before.Mode, s.after.Mode)
	}
	old, new = asText(old), asText(new)
	if binary(old) || binary(new) || len(old) > maxDiffInput || len(new) > maxDiffInput {
		if bytes.Equal(old, new) {
			return header, 0, 0
		}
		return header + fmt.Sprintf("Binary or large file %s changed (%d → %d bytes)\n", s.display, len(old), len(new)), 0, 0
	}
	from, to := text.QuotePath("a/"+s.display), text.QuotePath("b/"+s.display)
	if s.before.Kind != kindFile {
		from = "/dev/null"
	}
	if s.after.Kind != kindFile {
		to = "/dev/null"
	}
	d := udiff.Unified(from, to, string(old), string(new))
	added, removed := 0, 0
	for line := range strings.SplitSeq(d, "\n") {
		switch {
		case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
		case strings.HasPrefix(line, "+"):
			added++
		case strings.HasPrefix(line, "-"):
			removed++
		}
	}
	if d == "" && s.before.Kind != kindFile { // an empty new file
		d = fmt.Sprintf("--- /dev/null\n+++ %s\n", text.QuotePath("b/"+s.display))
	}
	return header + d, added, removed
}

func linkText(img image) string {
	if img.Kind == kindSymlink {
		return img.Target
	}
	return img.Kind
}

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

// diffOf joins the diffs of the steps, cut at max bytes.
func diffOf(steps []*slot, recs []fileRec, max int) (string, bool) {
	var b strings.Builder
	cut := false
	for i, s := range steps {
		d, added, removed := fileDiff(s)
		recs[i].Added, recs[i].Removed = added, removed
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
