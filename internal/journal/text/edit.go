package text

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
)

// bom is the UTF-8 byte order mark.
const bom = "\xef\xbb\xbf"

// Style is how a file spells what its text does not show: a BOM and
// CRLF line ends. Edits match against the text without them and write the
// result back with them.
type Style struct {
	BOM  bool // the content starts with a UTF-8 byte order mark
	CRLF bool // every line end is CRLF
}

// SplitStyle returns content's text (LF line ends, no BOM) and its style.
// A file with mixed line ends is left as it is (crlf false).
func SplitStyle(content []byte) (string, Style) {
	var st Style
	if bytes.HasPrefix(content, []byte(bom)) {
		st.BOM = true
		content = content[len(bom):]
	}
	s := string(content)
	if crlf := strings.Count(s, "\r\n"); crlf > 0 && crlf == strings.Count(s, "\n") {
		st.CRLF = true
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	return s, st
}

// Join turns text back into content in style st.
func (st Style) Join(s string) []byte {
	if st.CRLF {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	if st.BOM {
		s = bom + s
	}
	return []byte(s)
}

// Edit replaces old by new in content, exactly, and returns the new
// content and the number of replacements. old must occur once, unless all.
func Edit(display string, content []byte, old, new string, all bool) ([]byte, int, *abi.Error) {
	if old == "" {
		return nil, 0, abi.Errorf(abi.InvalidArgument, "oldString is empty; to replace the whole of %s use write_file, otherwise pass the exact text to replace", quote(display))
	}
	text, st := SplitStyle(content)
	if st.CRLF || strings.Contains(old, "\r\n") && !strings.Contains(text, "\r\n") {
		old = strings.ReplaceAll(old, "\r\n", "\n")
		new = strings.ReplaceAll(new, "\r\n", "\n")
	}
	if old == new {
		return nil, 0, abi.Errorf(abi.InvalidArgument, "oldString and newString are the same, so the edit would change nothing; pass the new text as newString")
	}
	n := strings.Count(text, old)
	switch {
	case n == 0:
		return nil, 0, noMatch(display, text, old)
	case n > 1 && !all:
		return nil, 0, abi.Errorf(abi.AmbiguousEdit, "oldString occurs %d times in %s (starting at lines %s); add surrounding lines to oldString so that it occurs once, or set replaceAll to change every occurrence",
			n, quote(display), occurrenceLines(text, old, 20))
	}
	if all {
		text = strings.ReplaceAll(text, old, new)
	} else {
		text = strings.Replace(text, old, new, 1)
	}
	return st.Join(text), n, nil
}

// occurrenceLines lists the 1-based lines where old starts in text.
func occurrenceLines(text, old string, max int) string {
	var lines []string
	line, at := 1, 0
	for len(lines) < max {
		i := strings.Index(text[at:], old)
		if i < 0 {
			break
		}
		line += strings.Count(text[at:at+i], "\n")
		lines = append(lines, fmt.Sprint(line))
		line += strings.Count(old, "\n")
		at += i + len(old)
		if len(old) == 0 {
			break
		}
	}
	s := strings.Join(lines, ", ")
	if len(lines) == max {
		s += ", …"
	}
	return s
}

// maxCandidateWork bounds the line comparisons of the closest-candidate
// search.
const maxCandidateWork = 4_000_000

// noMatch explains a failed exact match: the closest lines of the file
// and what differs between them and old.
func noMatch(display, text, old string) *abi.Error {
	fl := strings.Split(text, "\n")
	ol := strings.Split(strings.TrimSuffix(old, "\n"), "\n")
	start, score := closest(fl, ol)
	if score == 0 {
		return abi.Errorf(abi.NoMatch, "oldString was not found in %s, and no line of the file resembles it; read the file again (it may have changed) and copy the text to replace exactly, without line numbers", quote(display))
	}
	end := start + len(ol)
	if end > len(fl) {
		end = len(fl)
	}
	where := fmt.Sprintf("line %d", start+1)
	if end-start > 1 {
		where = fmt.Sprintf("lines %d-%d", start+1, end)
	}
	why := ""
	for i := start; i < end; i++ {
		if d := lineDiff(fl[i], ol[i-start]); d != "" {
			if end-start > 1 {
				why = fmt.Sprintf("; at line %d %s", i+1, d)
			} else {
				why = ", where " + d
			}
			why += fmt.Sprintf(" (the file has %s)", clip(fl[i]))
			break
		}
	}
	if why == "" && strings.HasSuffix(old, "\n") != (end < len(fl)) {
		why = "; they differ only in the line end after the last line"
	}
	return abi.Errorf(abi.NoMatch, "oldString was not found exactly in %s. The closest text is at %s%s. Edits are exact: copy the text as read_file shows it (without line numbers) and retry", quote(display), where, why)
}

// closest finds the window of len(ol) lines of fl most like ol, comparing
// lines without white space and case. It returns the window's start and
// how many lines matched (0: nothing alike).
func closest(fl, ol []string) (int, int) {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), "")) }
	on := make([]string, len(ol))
	for i, s := range ol {
		on[i] = norm(s)
	}
	fn := make([]string, len(fl))
	for i, s := range fl {
		fn[i] = norm(s)
	}
	best, bestScore := 0, 0
	last := len(fl) - len(ol)
	if last < 0 {
		last = 0
	}
	work := 0
	for s := 0; s <= last && work < maxCandidateWork; s++ {
		score := 0
		for i := range on {
			work++
			if s+i < len(fn) && fn[s+i] == on[i] && (on[i] != "" || len(on) == 1) {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = s, score
		}
	}
	return best, bestScore
}

// lineDiff says how the file's line f differs from old's line o, or ""
// when they are equal.
func lineDiff(f, o string) string {
	if f == o {
		return ""
	}
	ft, ot := strings.TrimRight(f, " \t"), strings.TrimRight(o, " \t")
	switch {
	case strings.TrimSuffix(f, "\r") == strings.TrimSuffix(o, "\r"):
		return "the line ends differ (CRLF against LF)"
	case ft == ot:
		return "trailing blanks differ"
	}
	fi, oi := indent(ft), indent(ot)
	if ft[len(fi):] == ot[len(oi):] {
		return fmt.Sprintf("the indentation differs: the file indents with %s, oldString with %s", describeIndent(fi), describeIndent(oi))
	}
	if strings.EqualFold(ft, ot) {
		return "the letter case differs"
	}
	if strings.Join(strings.Fields(f), " ") == strings.Join(strings.Fields(o), " ") {
		return "the spacing inside the line differs"
	}
	return fmt.Sprintf("the text differs: oldString has %s", clip(o))
}

func indent(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

func describeIndent(s string) string {
	tabs, spaces := strings.Count(s, "\t"), strings.Count(s, " ")
	switch {
	case s == "":
		return "nothing"
	case spaces == 0:
		return plural(tabs, "tab")
	case tabs == 0:
		return plural(spaces, "space")
	}
	return plural(tabs, "tab") + " and " + plural(spaces, "space")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// clip quotes a line for a message, cut to a readable length.
func clip(s string) string {
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// quote quotes a display path for a message.
func quote(p string) string { return fmt.Sprintf("%q", p) }
