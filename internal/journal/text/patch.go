package text

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jujutools/juju/sdk/abi"
)

// FilePatch is the part of a unified diff about one file. Old or New is
// empty for /dev/null (a file created or deleted).
type FilePatch struct {
	Old, New string
	// Exec is set when a git patch gives the file a mode ("new file mode",
	// "new mode"): whether it is executable, the one bit git keeps. It is
	// nil when the patch says nothing of the mode, and the file keeps its
	// own (a new file gets the default).
	Exec  *bool
	Hunks []Hunk
}

// Hunk is one @@ section. Lines keep their "\n", except a last line marked
// "\ No newline at end of file".
type Hunk struct {
	Header   string
	OldStart int // 1-based; 0 for an empty old side
	OldLines []string
	NewLines []string
	// Context is set when the hunk has context lines (a diff -U0 hunk has
	// none): a hunk with context that starts at line 1 belongs at the
	// file's start, as git apply holds it.
	Context bool
	// RawOld and RawNew are OldLines and NewLines as the patch wrote them,
	// a line's carriage return kept before its "\n"; nil when the hunk's
	// lines have none. A file whose line ends are mixed keeps its
	// carriage returns in its text, and only these lines can match it.
	RawOld, RawNew []string
}

// maxPatchFiles bounds the files of one patch.
const maxPatchFiles = 1000

// ParsePatch reads a unified diff (git's or diff -u's) into file patches.
// Prose before a file's "---" line is skipped. A git diff's extended
// header lines are read: a rename, a file made or deleted, and a mode
// change each apply, also with no hunk (an empty file, a pure rename).
// What apply_patch does not do — a copy, a binary patch, a symbolic link
// or submodule — refuses the whole patch by name rather than being left
// out of a patch reported as applied.
func ParsePatch(text string) ([]FilePatch, *abi.Error) {
	if e := codexPatch(strings.ReplaceAll(text, "\r\n", "\n")); e != nil {
		return nil, e
	}
	// The patch is read with LF line ends, and a hunk's lines are also kept
	// as written (raw), for a file of mixed line ends.
	raw := strings.SplitAfter(text, "\n")
	lines := make([]string, len(raw))
	for i, l := range raw {
		if b, ok := strings.CutSuffix(l, "\r\n"); ok {
			l = b + "\n"
		}
		lines[i] = l
	}
	var out []FilePatch
	add := func(fp FilePatch) *abi.Error {
		out = append(out, fp)
		if len(out) > maxPatchFiles {
			return abi.Errorf(abi.TooLarge, "the patch touches more than %d files; split it into smaller patches", maxPatchFiles)
		}
		return nil
	}
	for i := 0; i < len(lines); {
		var g gitHeader
		if strings.HasPrefix(lines[i], "diff --git ") {
			var e *abi.Error
			if g, i, e = readGitHeader(lines, i); e != nil {
				return nil, e
			}
			if !fileHeaderAt(lines, i) {
				fp, ok, e := g.alone()
				if e != nil {
					return nil, e
				}
				if ok {
					if e := add(fp); e != nil {
						return nil, e
					}
				}
				continue
			}
		}
		if !fileHeaderAt(lines, i) {
			if strings.HasPrefix(lines[i], "@@") {
				return nil, patchError("a hunk (%s) comes before any --- / +++ file header", strings.TrimSpace(lines[i]))
			}
			i++
			continue
		}
		fp := FilePatch{Old: patchPath(lines[i][4:]), New: patchPath(lines[i+1][4:]), Exec: g.exec}
		if e := g.agrees(fp, i); e != nil {
			return nil, e
		}
		oldEpoch, newEpoch := epochStamp(lines[i][4:]), epochStamp(lines[i+1][4:])
		if fp.Old == "" && fp.New == "" {
			return nil, patchError("a file goes from /dev/null to /dev/null")
		}
		i += 2
		for i < len(lines) && strings.HasPrefix(lines[i], "@@") {
			h, next, e := parseHunk(lines, raw, i, FileName(fp))
			if e != nil {
				return nil, e
			}
			fp.Hunks = append(fp.Hunks, h)
			i = next
		}
		// diff -N (diff -ruN a b) writes a file made or deleted as an
		// empty file dated the Unix epoch, not /dev/null: git apply
		// creates or deletes it, and so does juju, when the hunk agrees.
		if oldEpoch && !newEpoch && len(fp.Hunks) == 1 && fp.Hunks[0].OldStart == 0 && len(fp.Hunks[0].OldLines) == 0 {
			fp.Old = ""
		} else if newEpoch && !oldEpoch && len(fp.Hunks) == 1 && len(fp.Hunks[0].NewLines) == 0 && fp.Old == fp.New {
			fp.New = ""
		}
		if len(fp.Hunks) == 0 && !(fp.Old != "" && fp.New != "" && fp.Old != fp.New) && fp.Exec == nil {
			return nil, patchError("the file %s has a header but no @@ hunk", FileName(fp))
		}
		if e := add(fp); e != nil {
			return nil, e
		}
	}
	if len(out) == 0 {
		return nil, patchError("it holds no file: a unified diff needs --- and +++ header lines followed by @@ hunks")
	}
	return out, nil
}

// codexPatch refuses a patch in Codex's own format ("*** Begin Patch",
// "*** Update File: …"), which models trained on Codex send to a tool
// named apply_patch, with what to send instead: read as a unified diff,
// it failed on its first @@ with a message about file headers.
func codexPatch(text string) *abi.Error {
	first, _, _ := strings.Cut(strings.TrimLeft(text, " \t\n"), "\n")
	if strings.TrimSpace(first) != "*** Begin Patch" {
		return nil
	}
	return abi.Errorf(abi.InvalidArgument, "the patch is in Codex's \"*** Begin Patch\" format, which apply_patch does not read: send a unified diff instead, "+
		"each file as \"--- a/PATH\" and \"+++ b/PATH\" lines (--- /dev/null to create it, +++ /dev/null to delete it) followed by \"@@ -l,n +l,n @@\" hunks "+
		"with their context lines; or make the change with edit_file, write_file, delete_path and move_path")
}

// fileHeaderAt reports whether lines[i] and lines[i+1] are a file's ---
// and +++ lines.
func fileHeaderAt(lines []string, i int) bool {
	return i+1 < len(lines) && strings.HasPrefix(lines[i], "--- ") && strings.HasPrefix(lines[i+1], "+++ ")
}

// gitHeader is what the extended header lines of a git diff say of one
// file: the lines from "diff --git" to its "---" line, or to the next
// file when it has none.
type gitHeader struct {
	a, b             string // the names of the diff --git line, "" when unreadable
	from, to         string // rename from, rename to
	created, deleted bool
	exec             *bool // the new mode's executable bit, when a mode is given
}

// readGitHeader reads the git header starting at lines[i] and returns the
// index of the line after it.
func readGitHeader(lines []string, i int) (gitHeader, int, *abi.Error) {
	var g gitHeader
	g.a, g.b = gitNames(strings.TrimSuffix(strings.TrimPrefix(lines[i], "diff --git "), "\n"))
	name := g.b
	if name == "" {
		name = strings.TrimSpace(strings.TrimPrefix(lines[i], "diff --git "))
	}
	for i++; i < len(lines); i++ {
		l := strings.TrimSuffix(lines[i], "\n")
		if strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "@@") || strings.HasPrefix(l, "diff --git ") {
			break
		}
		key, value := headerLine(l)
		switch key {
		case "new file mode", "new mode", "deleted file mode":
			exec, e := gitMode(value, name)
			if e != nil {
				return g, i, e
			}
			switch key {
			case "new file mode":
				g.created, g.exec = true, &exec
			case "new mode":
				g.exec = &exec
			default:
				g.deleted = true
			}
		case "rename from":
			g.from = headerPath(value)
		case "rename to":
			g.to = headerPath(value)
		case "copy from", "copy to":
			return g, i, patchError("it copies a file (%s), which apply_patch does not do; send the copy as a new file (--- /dev/null)", abi.Quote(headerPath(value)))
		case "GIT binary patch", "Binary files":
			return g, i, patchError("it holds a binary patch for %s, which apply_patch does not apply; change binary files another way", abi.Quote(name))
		}
	}
	return g, i, nil
}

// agrees refuses the --- and +++ names of fp, read at lines[i], when the
// git header above them says otherwise: a rename between other names, a
// file made that --- names, a file deleted that +++ names. git apply
// refuses such a patch ("inconsistent new filename", "expected
// /dev/null"); juju went by the --- and +++ lines alone, so a patch
// whose header renamed a.txt to c.txt changed a.txt in place and was
// reported applied, and a "new file mode" one changed the file there.
func (g gitHeader) agrees(fp FilePatch, i int) *abi.Error {
	line := i + 1 // 1-based, the --- line
	switch {
	case g.created && fp.Old != "":
		return patchError("its git header makes a new file, but line %d names the old file %s, not /dev/null", line, abi.Quote(fp.Old))
	case g.deleted && fp.New != "":
		return patchError("its git header deletes a file, but line %d names the new file %s, not /dev/null", line+1, abi.Quote(fp.New))
	case g.from != "" && fp.Old != "" && fp.Old != g.from:
		return patchError("its git header renames from %s, but line %d names the old file %s", abi.Quote(g.from), line, abi.Quote(fp.Old))
	case g.to != "" && fp.New != "" && fp.New != g.to:
		return patchError("its git header renames to %s, but line %d names the new file %s", abi.Quote(g.to), line+1, abi.Quote(fp.New))
	}
	return nil
}

// headerLine splits a git extended header line into its key and value.
func headerLine(l string) (key, value string) {
	for _, k := range []string{"new file mode", "deleted file mode", "new mode", "old mode", "rename from", "rename to", "copy from", "copy to", "GIT binary patch", "Binary files"} {
		if v, ok := strings.CutPrefix(l, k); ok && (v == "" || v[0] == ' ') {
			return k, strings.TrimSpace(v)
		}
	}
	return "", ""
}

// gitMode reads the mode of a git header line: a regular file, executable
// or not; a symbolic link or a submodule refuses the patch.
func gitMode(v, name string) (exec bool, e *abi.Error) {
	switch v {
	case "100644", "100664":
		return false, nil
	case "100755":
		return true, nil
	case "120000":
		return false, patchError("it makes %s a symbolic link (mode 120000), which apply_patch does not do; make links with a command", abi.Quote(name))
	case "160000":
		return false, patchError("it changes %s as a submodule (mode 160000), which apply_patch does not do", abi.Quote(name))
	}
	return false, patchError("the mode %s of %s is not a file mode git writes (100644 or 100755)", abi.Quote(v), abi.Quote(name))
}

// alone is the file patch of a git header followed by no --- line: a file
// renamed, made or deleted empty, or given a new mode, and nothing else.
// It reports false for a header that changes nothing (a bare diff --git
// line of prose).
func (g gitHeader) alone() (FilePatch, bool, *abi.Error) {
	old, new := g.a, g.b
	if g.from != "" || g.to != "" {
		if g.from == "" || g.to == "" {
			return FilePatch{}, false, patchError("a rename names only one side (rename from / rename to)")
		}
		old, new = g.from, g.to
	}
	if old == "" || new == "" {
		if g.created || g.deleted || g.exec != nil {
			return FilePatch{}, false, patchError("its diff --git line names no file juju can read")
		}
		return FilePatch{}, false, nil
	}
	switch {
	case g.created:
		return FilePatch{New: new, Exec: g.exec}, true, nil
	case g.deleted:
		return FilePatch{Old: old}, true, nil
	case old != new || g.exec != nil:
		return FilePatch{Old: old, New: new, Exec: g.exec}, true, nil
	}
	return FilePatch{}, false, nil
}

// gitNames reads the two names of a diff --git line ("a/x b/x", or as git
// quotes them), without their a/ and b/ prefixes. Unquoted names holding
// spaces are read only when both are the same (no rename), as git reads
// them; otherwise both are "".
func gitNames(s string) (a, b string) {
	if strings.HasPrefix(s, `"`) {
		q, ok := unquotePath(s)
		if !ok {
			return "", ""
		}
		rest := strings.TrimPrefix(s[closingQuote(s)+1:], " ")
		if r, ok := unquotePath(rest); ok {
			return stripAB(q, "a/"), stripAB(r, "b/")
		}
		return stripAB(q, "a/"), stripAB(rest, "b/")
	}
	if strings.HasSuffix(s, `"`) {
		if i := strings.Index(s, ` "`); i >= 0 {
			if r, ok := unquotePath(s[i+1:]); ok {
				return stripAB(s[:i], "a/"), stripAB(r, "b/")
			}
		}
		return "", ""
	}
	if n := (len(s) - 5) / 2; n > 0 && len(s) == 2*n+5 && s[:2] == "a/" && s[2+n:2+n+3] == " b/" && s[2:2+n] == s[5+n:] {
		return s[2 : 2+n], s[5+n:]
	}
	return "", ""
}

// stripAB takes git's a/ or b/ prefix off a name; a name without it is
// not git's and is returned as "".
func stripAB(s, prefix string) string {
	if r, ok := strings.CutPrefix(s, prefix); ok {
		return r
	}
	return ""
}

// headerPath reads a path of a rename or copy line: as written, or as git
// quotes it; git writes these without a/ or b/.
func headerPath(v string) string {
	if p, ok := unquotePath(v); ok {
		return p
	}
	return v
}

func patchError(format string, args ...any) *abi.Error {
	return abi.Errorf(abi.InvalidArgument, "the patch is not a unified diff juju can read: "+format+"; send a unified diff (as git diff or diff -u print it)", args...)
}

func FileName(fp FilePatch) string {
	if fp.New != "" {
		return fp.New
	}
	return fp.Old
}

// epochStamp reports whether a --- or +++ line (after its "--- ") dates
// its file at the Unix epoch, in any time zone, as diff -N dates a file
// that is not there: "f\t1970-01-01 00:00:00.000000000 +0000".
func epochStamp(s string) bool {
	if strings.HasPrefix(s, `"`) {
		if _, ok := unquotePath(s); !ok {
			return false
		}
		s = s[closingQuote(s)+1:]
	}
	_, stamp, ok := strings.Cut(strings.TrimRight(s, "\n"), "\t")
	if !ok {
		return false
	}
	t, err := time.Parse("2006-01-02 15:04:05.999999999 -0700", strings.TrimSpace(stamp))
	return err == nil && t.Unix() == 0
}

// patchPath reads the path of a --- or +++ line: the text up to a tab
// (a timestamp follows), or a name git quoted ("a/caf\303\251.txt"), without
// git's a/ or b/ prefix; "" for /dev/null.
func patchPath(s string) string {
	s = strings.TrimRight(s, "\n")
	if p, ok := unquotePath(s); ok {
		s = p
	} else if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if s == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(s, "a/") || strings.HasPrefix(s, "b/") {
		s = s[2:]
	}
	return s
}

// parseHunk reads the hunk starting at lines[i] and returns the index of
// the line after it; raw holds the lines as the patch wrote them.
func parseHunk(lines, raw []string, i int, file string) (Hunk, int, *abi.Error) {
	header := strings.TrimRight(lines[i], "\n")
	oldStart, oldLen, newLen, ok := hunkRange(header)
	if !ok {
		return Hunk{}, 0, patchError("the hunk header %q of %s is malformed (want @@ -l,n +l,n @@)", header, file)
	}
	h := Hunk{Header: header, OldStart: oldStart}
	i++
	gotOld, gotNew := 0, 0
	last := byte(0) // kind of the previous line, for "\ No newline"
	hasCR := false
	for i < len(lines) && (gotOld < oldLen || gotNew < newLen || strings.HasPrefix(lines[i], `\`)) {
		l := lines[i]
		if l == "" { // the end of the text
			break
		}
		kind, body := l[0], l[1:]
		if l == "\n" { // an empty context line whose space was dropped
			kind, body = ' ', "\n"
		}
		rawBody := body
		if raw[i] != l {
			rawBody, hasCR = raw[i][len(raw[i])-len(body)-1:], true
		}
		switch kind {
		case ' ':
			h.OldLines = append(h.OldLines, body)
			h.NewLines = append(h.NewLines, body)
			h.RawOld = append(h.RawOld, rawBody)
			h.RawNew = append(h.RawNew, rawBody)
			h.Context = true
			gotOld++
			gotNew++
		case '-':
			h.OldLines = append(h.OldLines, body)
			h.RawOld = append(h.RawOld, rawBody)
			gotOld++
		case '+':
			h.NewLines = append(h.NewLines, body)
			h.RawNew = append(h.RawNew, rawBody)
			gotNew++
		case '\\':
			switch last {
			case '-':
				trimLast(h.OldLines)
				trimLast(h.RawOld)
			case '+':
				trimLast(h.NewLines)
				trimLast(h.RawNew)
			case ' ':
				trimLast(h.OldLines)
				trimLast(h.NewLines)
				trimLast(h.RawOld)
				trimLast(h.RawNew)
			default:
				return Hunk{}, 0, patchError("a \"\\ No newline\" marker in %s follows no line", file)
			}
		default:
			return Hunk{}, 0, patchError("line %q in hunk %s of %s starts with neither ' ', '-' nor '+'", strings.TrimRight(l, "\n"), header, file)
		}
		last = kind
		i++
	}
	if gotOld != oldLen || gotNew != newLen {
		return Hunk{}, 0, patchError("hunk %s of %s announces %d old and %d new lines but holds %d and %d", header, file, oldLen, newLen, gotOld, gotNew)
	}
	if !hasCR {
		h.RawOld, h.RawNew = nil, nil
	}
	if n, extra := linesPastHunk(lines, i); n >= 0 {
		return Hunk{}, 0, patchError("hunk %s of %s announces %d old and %d new lines, but more of its lines follow them: line %d (%q) would be left out; "+
			"count the hunk's lines again (a context line counts on both sides) and fix its @@ line", header, file, oldLen, newLen, n+1, strings.TrimRight(extra, "\n"))
	}
	return h, i, nil
}

// linesPastHunk finds a line that adds or removes text among the lines
// right after a hunk whose announced lines are all read: the hunk's own,
// when its @@ line counts too few, as a model that counts by hand often
// writes it. It returns that line's index, or -1. git apply and patch skip
// such lines as text between files, so an @@ -2,2 +2,2 line over a hunk
// that also deletes a third line was applied without that deletion and
// reported as applied. The lines looked at are those a hunk holds (' ',
// '-', '+', '\\'), up to a blank line, the next file's header or the next
// hunk; a mail's signature line ("-- ") is not one.
func linesPastHunk(lines []string, i int) (int, string) {
	for ; i < len(lines) && !fileHeaderAt(lines, i); i++ {
		l := lines[i]
		if l == "" || l == "\n" || l == "-- \n" || strings.HasPrefix(l, "@@") {
			break
		}
		switch l[0] {
		case '-', '+':
			return i, l
		case ' ', '\\':
			continue
		}
		break
	}
	return -1, ""
}

// Raw is fp with its hunks' lines as the patch wrote them, carriage
// returns kept, and whether any hunk had one.
func (fp FilePatch) Raw() (FilePatch, bool) {
	any := false
	hunks := make([]Hunk, len(fp.Hunks))
	for i, h := range fp.Hunks {
		if h.RawOld != nil || h.RawNew != nil {
			h.OldLines, h.NewLines, any = h.RawOld, h.RawNew, true
		}
		hunks[i] = h
	}
	fp.Hunks = hunks
	return fp, any
}

func trimLast(lines []string) {
	if n := len(lines); n > 0 {
		lines[n-1] = strings.TrimSuffix(lines[n-1], "\n")
	}
}

// hunkRange reads "@@ -a,b +c,d @@ …".
func hunkRange(h string) (oldStart, oldLen, newLen int, ok bool) {
	rest, found := strings.CutPrefix(h, "@@ -")
	if !found {
		return 0, 0, 0, false
	}
	end := strings.Index(rest, " @@")
	if end < 0 {
		return 0, 0, 0, false
	}
	parts := strings.Fields(rest[:end])
	if len(parts) != 2 || !strings.HasPrefix(parts[1], "+") {
		return 0, 0, 0, false
	}
	oldStart, oldLen, ok1 := span(parts[0])
	_, newLen, ok2 := span(parts[1][1:])
	return oldStart, oldLen, newLen, ok1 && ok2
}

// span reads "l,n" or "l" (n = 1).
func span(s string) (int, int, bool) {
	a, b, comma := strings.Cut(s, ",")
	start, err := strconv.Atoi(a)
	if err != nil || start < 0 || start > 1<<30 {
		return 0, 0, false
	}
	n := 1
	if comma {
		if n, err = strconv.Atoi(b); err != nil || n < 0 || n > 1<<30 {
			return 0, 0, false
		}
	}
	return start, n, true
}

// ApplyHunks applies the hunks to text (LF line ends), exactly: each hunk's
// old lines must be found as they are, at the line the hunk names or, when
// the lines above moved, at the nearest place after the previous hunk; a
// hunk without old lines goes exactly where it says.
func ApplyHunks(display, text string, hunks []Hunk) (string, *abi.Error) {
	out, _, e := PlaceHunks(display, text, hunks)
	return out, e
}

// Moved is a hunk applied at another line than its header names.
type Moved struct {
	Hunk   int // from 1
	Line   int // where its old lines start in the text, from 1
	Offset int // Line minus the header's line
}

// PlaceHunks is ApplyHunks, and also says which hunks it placed at another
// line than their headers name (git apply's "Hunk #2 succeeded at 14
// (offset 3 lines)"): a patch made against an older file applies there
// too, and whoever sent it learns that it did.
func PlaceHunks(display, text string, hunks []Hunk) (string, []Moved, *abi.Error) {
	var moved []Moved
	lines := strings.SplitAfter(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out []string
	at := 0 // next line of lines not yet copied
	budget := maxPlaceCompares
	for n, h := range hunks {
		want := max(h.OldStart-1, 0)
		pos := -1
		if len(h.OldLines) == 0 {
			// An insertion without context (diff -U0) has no lines to be
			// found by, so it goes after line OldStart exactly: anywhere
			// else would be a guess.
			want = h.OldStart
			if want >= at && want <= len(lines) {
				pos = want
			}
		} else if h.Context && h.OldStart <= 1 {
			// A hunk starting at line 1 changes the file's start: found
			// further down, its lines would change another place, which
			// git apply refuses too.
			if want >= at && blockAt(lines, h.OldLines, want) {
				pos = want
			}
		} else {
			pos = findBlock(lines, h.OldLines, at, want, &budget)
			if budget < 0 {
				return "", nil, abi.Errorf(abi.TooLarge, "hunk %d of %s is too long to find its place in a file this size (%d lines against %d); split the patch into smaller hunks", n+1, display, len(h.OldLines), len(lines))
			}
		}
		if pos < 0 {
			return "", nil, hunkConflict(display, n+1, h, lines, want, at)
		}
		if pos != want {
			moved = append(moved, Moved{Hunk: n + 1, Line: pos + 1, Offset: pos - want})
		}
		out = append(out, lines[at:pos]...)
		out = append(out, h.NewLines...)
		at = pos + len(h.OldLines)
	}
	out = append(out, lines[at:]...)
	return strings.Join(out, ""), moved, nil
}

// maxPlaceCompares bounds the line comparisons a patch may spend finding
// its hunks' places: each place tried compares up to a hunk's length, so a
// hunk of 100,000 lines over a file of a million identical lines would be
// 10^11 comparisons.
const maxPlaceCompares = 20_000_000

// findBlock returns where block occurs in lines at or after from, nearest
// to want; -1 when it does not occur, or when it spent budget (then
// below 0).
func findBlock(lines, block []string, from, want int, budget *int) int {
	if want < from {
		want = from
	}
	fits := func(p int) bool {
		if p < from || p+len(block) > len(lines) {
			return false
		}
		for i, b := range block {
			if *budget--; *budget < 0 {
				return false
			}
			if lines[p+i] != b {
				return false
			}
		}
		return true
	}
	for d := 0; (want-d >= from || want+d <= len(lines)) && *budget >= 0; d++ {
		if fits(want - d) {
			return want - d
		}
		if d > 0 && fits(want+d) {
			return want + d
		}
	}
	return -1
}

// blockAt reports whether block is lines at p.
func blockAt(lines, block []string, p int) bool {
	if p < 0 || p+len(block) > len(lines) {
		return false
	}
	for i, b := range block {
		if lines[p+i] != b {
			return false
		}
	}
	return true
}

// hunkConflict explains why hunk n, h, found no place: want is where its
// old lines would start and at the first line after the previous hunk.
func hunkConflict(display string, n int, h Hunk, lines []string, want, at int) *abi.Error {
	detail := ""
	switch {
	case len(h.OldLines) == 0 && want > len(lines):
		detail = fmt.Sprintf("; it adds lines after line %d, but the file has %d lines", want, len(lines))
	case want < at:
		detail = fmt.Sprintf("; it starts at line %d, but hunk %d before it reaches line %d: a file's hunks must come in order, top to bottom, without overlapping, so reorder or merge them", want+1, n-1, at)
	}
	if len(h.OldLines) > 0 && h.Context && h.OldStart <= 1 && want >= at {
		budget := maxPlaceCompares
		if p := findBlock(lines, h.OldLines, at, want, &budget); p > 0 {
			detail = fmt.Sprintf("; its lines are at line %d, but a hunk starting at line 1 changes the start of the file and applies only there (as git apply holds it): the file gained lines above them since the patch was made", p+1)
		}
	}
	for i, b := range h.OldLines {
		p := want + i
		if detail != "" {
			break
		}
		if p >= len(lines) {
			detail = fmt.Sprintf("; the file ends before line %d, which the hunk expects to be %s", p+1, clip(strings.TrimSuffix(b, "\n")))
			break
		}
		if lines[p] == b {
			continue
		}
		if strings.TrimSuffix(b, "\n") == lines[p] && p == len(lines)-1 {
			detail = fmt.Sprintf("; line %d of the file, %s, is its last line and has no newline at its end, which the hunk must mark: put a line \"\\ No newline at end of file\" right after it", p+1, clip(lines[p]))
			break
		}
		fl, hl := strings.TrimSuffix(lines[p], "\n"), strings.TrimSuffix(b, "\n")
		detail = fmt.Sprintf("; line %d of the file is %s where the hunk expects %s", p+1, clip(fl), clip(hl))
		// lineDiff names its second line oldString; here it is the hunk's.
		if d := lineDiff(fl, hl); d != "" {
			detail += ": " + strings.ReplaceAll(d, "oldString", "the hunk")
		}
		if strings.Join(strings.Fields(fl), " ") == strings.Join(strings.Fields(hl), " ") {
			detail += ". Hunks apply exactly, white space included (as git apply does without --ignore-whitespace): copy the file's white space into the hunk's context and removed lines"
		}
	}
	return abi.Errorf(abi.Conflict, "hunk %d (%s) of %s does not apply%s. Nothing was written; read the file again and make the patch from its current content", n, h.Header, abi.Quote(display), detail)
}

// unquotePath reads a name git quoted at the start of s: in double quotes,
// with C's escapes and bytes outside ASCII in octal (core.quotePath), as
// git writes a name holding a control character, a quote, a backslash or
// such bytes. What follows the closing quote (a tab, a timestamp) is left.
func unquotePath(s string) (string, bool) {
	if !strings.HasPrefix(s, `"`) {
		return "", false
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			p, err := strconv.Unquote(s[:i+1])
			return p, err == nil
		}
	}
	return "", false
}

// closingQuote is the index of the quote closing the quoted name s
// starts with (unquotePath has read it).
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(s) - 1
}

// QuotePath writes a path for a --- or +++ line as git does: as it is,
// unless it holds a control character, a double quote or a backslash; then
// in double quotes with C's escapes (\n, \t, \", \\, other control bytes in
// octal). Letters outside ASCII stay as they are (git's core.quotePath
// off), but not a character that would act on the line rather than show
// (a C1 control, a bidi override, mark or isolate, a zero-width or other
// format character, a line or paragraph separator, as juju.LineText
// names them): its bytes are in octal, as core.quotePath writes them, so
// a name cannot reorder or hide the header or the sentence that shows it
// (Trojan Source). ParsePatch reads either form.
func QuotePath(p string) string {
	if !strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '"' || r == '\\' || actsOnLine(r) }) {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		if c := p[i]; c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(p[i:])
			if actsOnLine(r) {
				for _, c := range []byte(p[i : i+n]) {
					fmt.Fprintf(&b, `\%03o`, c)
				}
			} else {
				b.WriteString(p[i : i+n])
			}
			i += n - 1
			continue
		}
		switch c := p[i]; c {
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, `\%03o`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// actsOnLine reports whether r, outside ASCII, acts on the line that
// shows it rather than showing itself: a C1 control, a format character
// (bidi overrides, marks and isolates, zero-width characters), a line or
// paragraph separator.
func actsOnLine(r rune) bool {
	return r >= utf8.RuneSelf && (unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp))
}
