package text

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/jujutools/juju/sdk/abi"
)

// maxExplained is how many differences a NO_MATCH message describes.
const maxExplained = 3

// noMatch explains a failed exact match: the file's text most like old,
// where it is, and what differs between the two, line by line.
func noMatch(display, text, old string) *abi.Error {
	if enc := utf16BOM(text); enc != "" {
		return abi.Errorf(abi.NoMatch, "oldString was not found in %s, which starts as %s text but is not valid UTF-16 throughout (an odd length, a broken surrogate pair) or is over 16 MiB, so edits cannot read it as text. Change it with a command (run_command), or rewrite it whole with write_file", abi.Quote(display), enc)
	}
	if line, ok := normalizedMatch(text, old); ok {
		return abi.Errorf(abi.NoMatch, "oldString was not found exactly in %s, but it is there, at line %d, once accented letters are compared by how they look: the file and oldString encode some of them differently "+
			"(a letter followed by a combining mark against one precomposed character, Unicode NFD against NFC). Edits are exact: copy the text with the file's own encoding of those letters, or rewrite the file with write_file", abi.Quote(display), line)
	}
	if line, ok := shownMatch(text, old); ok {
		return abi.Errorf(abi.NoMatch, "oldString was not found exactly in %s, but it is there, at line %d, as read_file shows it: there the file holds bytes that are not UTF-8 (Latin-1 text, say), which read_file shows as U+FFFD (\ufffd) and no oldString can name. "+
			"Make oldString stop before them or start after them, or convert the file to UTF-8 with a command (iconv)", abi.Quote(display), line)
	}
	if text == "" {
		return abi.Errorf(abi.NoMatch, "oldString was not found in %s, which is empty: there is no text to replace. To fill it, pass an empty oldString and the content as newString", abi.Quote(display))
	}
	if line, why, ok := lookalikeMatch(text, old); ok {
		return abi.Errorf(abi.NoMatch, "oldString was not found exactly in %s, but it is there, at line %d, with characters that look alike and are not the same: %s. "+
			"Edits are exact: write those characters as the file has them (and leave out those it lacks), in newString too to keep the file's style, and retry", abi.Quote(display), line, why)
	}
	if line, entities, ok := entityMatch(text, old); ok {
		return abi.Errorf(abi.NoMatch, "oldString was not found exactly in %s, but it is there, at line %d, once its HTML entities are read as the characters they stand for (%s): the file holds the characters themselves. "+
			"Write them plainly in oldString, and in newString unless the file should hold the entities, and retry", abi.Quote(display), line, entities)
	}
	if line, ok := escapeMatch(text, old); ok {
		return abi.Errorf(abi.NoMatch, "oldString was not found exactly in %s, but it is there, at line %d, once its backslash escapes are read as the characters they stand for: oldString holds a backslash and a letter (\\n, \\t) where the file has a line break or a tab, as when text is escaped twice. "+
			"Send real line breaks and tabs in oldString and newString (one level of JSON escaping) and retry", abi.Quote(display), line)
	}
	numbers := ""
	if bare, prefix, consecutive, ok := withoutLineNumbers(old); ok {
		if i := strings.Index(text, bare); i >= 0 {
			return abi.Errorf(abi.NoMatch, "oldString was not found exactly in %s, but it is there, at line %d, without the line numbers its lines begin with (%s): read_file's numbered view puts a number and a tab before each line, and they are not part of the file. "+
				"Drop them from oldString and newString (copy what follows each number's tab) and retry", abi.Quote(display), strings.Count(text[:i], "\n")+1, clip(prefix))
		}
		if consecutive {
			numbers = fmt.Sprintf("oldString's lines begin with consecutive numbers and a tab (%s), as read_file's numbered view shows lines: if they are line numbers, drop them from oldString and newString, as the file does not hold them. ", clip(prefix))
		}
	}
	if why := blankEnds(text, old); why != "" {
		return abi.Errorf(abi.NoMatch, "oldString was not found exactly in %s, %s%s. Edits are exact: copy the text as read_file shows it (without line numbers) and retry", abi.Quote(display), numbers, why)
	}
	fl := strings.Split(text, "\n")
	ol := strings.Split(strings.TrimSuffix(old, "\n"), "\n")
	cands := closest(fl, ol)
	if len(cands) == 0 {
		return abi.Errorf(abi.NoMatch, "oldString was not found in %s, and no line of the file resembles it; %sread the file again (it may have changed) and copy the text to replace exactly, without line numbers", abi.Quote(display), numbers)
	}
	start := cands[0].start
	var b strings.Builder
	fmt.Fprintf(&b, "oldString was not found exactly in %s. %s", abi.Quote(display), numbers)
	why := ""
	if len(ol) == 1 {
		fmt.Fprintf(&b, "The closest line is line %d, %s", start+1, clip(fl[start]))
		if d := lineDiff(fl[start], ol[0]); d != "" {
			why = ": " + d
		}
	} else {
		al := align(fl, ol, start)
		fmt.Fprintf(&b, "The closest text is at lines %d-%d", al.first+1, al.last+1)
		why = al.explain(fl, ol)
	}
	if why == "" && lineEndOnly(fl, ol, start, old) {
		why = "; they differ only in the line end after the last line"
	}
	b.WriteString(why)
	if len(cands) > 1 {
		var at []string
		for _, c := range cands[1:] {
			at = append(at, fmt.Sprint(c.start+1))
		}
		fmt.Fprintf(&b, ". Nearly as close: the text starting at line %s", strings.Join(at, " and "))
	}
	b.WriteString(". Edits are exact: copy the text as read_file shows it (without line numbers) and retry")
	return abi.Errorf(abi.NoMatch, "%s", b.String())
}

// withoutLineNumbers returns old without the line number each of its
// lines begins with, as a numbered read shows lines: digits (after
// spaces) and a tab, as read_file's numbered view and cat -n print them,
// or an arrow, as Claude Code's Read does. A model that copies a numbered
// view into oldString sends them, and the closest line then differs from
// it in a "4\treturn" that reads as part of the text. ok is false unless
// every line has one; prefix is the first line's, and consecutive says
// whether the numbers count up by one.
func withoutLineNumbers(old string) (bare, prefix string, consecutive, ok bool) {
	lines := strings.Split(old, "\n")
	last := len(lines)
	if last > 1 && lines[last-1] == "" {
		last-- // the line break after the last line
	}
	consecutive = true
	prev := -1
	for i, l := range lines[:last] {
		rest := strings.TrimLeft(l, " ")
		digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
		if digits == 0 || digits > 9 {
			return "", "", false, false
		}
		n := 0
		for _, d := range rest[:digits] {
			n = n*10 + int(d-'0')
		}
		after := rest[digits:]
		var text string
		switch {
		case strings.HasPrefix(after, "\t"):
			text = after[1:]
		case strings.HasPrefix(after, "→"):
			text = after[len("→"):]
		default:
			return "", "", false, false
		}
		if i == 0 {
			prefix = l[:len(l)-len(text)]
		} else if n != prev+1 {
			consecutive = false
		}
		prev = n
		lines[i] = text
	}
	bare = strings.Join(lines, "\n")
	return bare, prefix, consecutive, strings.TrimSpace(bare) != ""
}

// normalizedMatch reports whether old occurs in text once both are in
// Unicode's composed form (NFC), and at which line: a file written on a
// system that decomposes accents (NFD) looks the same as the model's
// composed oldString and holds other bytes, which the closest-line search
// scores as unlike (a short oldString over a long line resembles nothing).
func normalizedMatch(text, old string) (int, bool) {
	if norm.NFC.IsNormalString(text) && norm.NFC.IsNormalString(old) {
		return 0, false
	}
	nt := norm.NFC.String(text)
	i := strings.Index(nt, norm.NFC.String(old))
	if i < 0 {
		return 0, false
	}
	return strings.Count(nt[:i], "\n") + 1, true
}

// shownMatch reports whether old occurs in text as read_file shows it,
// each byte that is not UTF-8 made U+FFFD (as JSON sends it), and at
// which line. Compared as they are, such a line and oldString's look
// alike to nothing, or only to strings.EqualFold, which decodes the byte
// as U+FFFD too and called the difference one of letter case.
func shownMatch(text, old string) (int, bool) {
	if utf8.ValidString(text) || !strings.ContainsRune(old, utf8.RuneError) {
		return 0, false
	}
	var b strings.Builder
	b.Grow(len(text) + 64)
	for s := text; s != ""; {
		r, size := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[:size])
		}
		s = s[size:]
	}
	shown := b.String()
	i := strings.Index(shown, old)
	if i < 0 {
		return 0, false
	}
	return strings.Count(shown[:i], "\n") + 1, true
}

// blankEnds explains an oldString that is in the file once the empty (or
// blank) lines it starts or ends with are left out, and the file does not
// have them there: say what to drop from which end. The line-by-line
// explanation would compare such a line with the file's next one and name
// that line's text as missing from oldString. It returns "" otherwise,
// and for one line break too many after the last line alone, which
// lineEndOnly names.
func blankEnds(text, old string) string {
	// lead: whole blank lines at the start; trail: from the line break
	// after the last line with text on.
	end := len(strings.TrimRight(old, " \t\r\n"))
	if end == 0 {
		return ""
	}
	lead := 0
	if i := strings.LastIndexByte(old[:len(old)-len(strings.TrimLeft(old, " \t\r\n"))], '\n'); i >= 0 {
		lead = i + 1
	}
	cut := strings.IndexByte(old[end:], '\n')
	if cut < 0 {
		cut = len(old) - end // no line break after the text: no trail
	}
	core, head, tail := old[lead:end+cut], old[:lead], old[end+cut:]
	if head == "" && (tail == "" || tail == "\n") {
		return ""
	}
	// An occurrence of core that starts and ends at line ends.
	i := -1
	for from, n := 0, 0; n < 100; n++ {
		j := strings.Index(text[from:], core)
		if j < 0 {
			return ""
		}
		j += from
		if (j == 0 || text[j-1] == '\n') && (j+len(core) == len(text) || text[j+len(core)] == '\n' || strings.HasSuffix(core, "\n")) {
			i = j
			break
		}
		from = j + 1
	}
	if i < 0 {
		return ""
	}
	// What of head and tail the file does have there.
	have := 0
	for have < len(head) && have < i && head[len(head)-1-have] == text[i-1-have] {
		have++
	}
	extraHead, q := head[:len(head)-have], i-have
	after := text[i+len(core):]
	have = 0
	for have < len(tail) && have < len(after) && tail[have] == after[have] {
		have++
	}
	extraTail, p := tail[have:], i+len(core)+have
	lines := strings.Split(text, "\n")
	lineAt := func(pos int) (int, string) { // the 1-based line holding pos
		n := strings.Count(text[:pos], "\n")
		return n + 1, clip(lines[n])
	}
	var whys []string
	if extraHead != "" {
		before := "the file starts there"
		if q > 0 {
			n, l := lineAt(q - 1)
			before = fmt.Sprintf("the file has line %d, %s, before it", n, l)
		}
		n, l := lineAt(i)
		whys = append(whys, fmt.Sprintf("oldString starts with %s, which the file does not have before line %d, %s (%s): drop it from the start of oldString", clipShort(extraHead), n, l, before))
	}
	if extraTail != "" {
		next := "the file ends there"
		if p < len(text) {
			n, l := lineAt(p)
			next = fmt.Sprintf("the file goes on with line %d, %s", n, l)
		}
		n, l := lineAt(i + len(strings.TrimSuffix(core, "\n")))
		whys = append(whys, fmt.Sprintf("oldString ends with %s, which the file does not have after line %d, %s (%s): drop it from the end of oldString", clipShort(extraTail), n, l, next))
	}
	if len(whys) == 0 {
		return ""
	}
	n, _ := lineAt(i)
	return fmt.Sprintf("but it is there, at line %d, without the empty lines oldString starts or ends with: %s", n, strings.Join(whys, "; and "))
}

// explain says how oldString differs from the file (the first few
// differences).
func (al alignment) explain(fl, ol []string) string {
	if len(al.events) == 0 {
		return ""
	}
	var diffs []string
	counts := [3]int{}
	for _, e := range al.events {
		counts[e.kind]++
		if len(diffs) == maxExplained {
			continue
		}
		switch e.kind {
		case changed:
			diffs = append(diffs, fmt.Sprintf("at line %d, %s: %s", e.file+1, clip(fl[e.file]), lineDiff(fl[e.file], ol[e.old])))
		case oldOnly:
			where := fmt.Sprintf("it would come before line %d", e.file+1)
			if e.file >= realLines(fl) {
				where = "the file ends before it"
			}
			diffs = append(diffs, fmt.Sprintf("oldString's line %d, %s, is not in the file (%s)", e.old+1, clip(ol[e.old]), where))
		case fileOnly:
			diffs = append(diffs, fmt.Sprintf("the file has line %d, %s, which oldString does not have", e.file+1, clip(fl[e.file])))
		}
	}
	how := fmt.Sprintf("%d of %d lines differ", counts[changed], len(ol))
	if counts[oldOnly]+counts[fileOnly] > 0 {
		how = plural(len(al.events), "difference")
	}
	s := fmt.Sprintf(" (%s): ", how) + strings.Join(diffs, "; ")
	if len(al.events) > len(diffs) {
		s += fmt.Sprintf("; and %d more", len(al.events)-len(diffs))
	}
	return s
}

// lineEndOnly reports whether old's lines equal the window's and only the
// line end after the last one keeps them apart.
func lineEndOnly(fl, ol []string, start int, old string) bool {
	end := start + len(ol)
	if end > len(fl) {
		return false
	}
	for i, o := range ol {
		if fl[start+i] != o {
			return false
		}
	}
	return strings.HasSuffix(old, "\n") != (end < len(fl))
}

// lineDiff says how the file's line f differs from old's line o, or ""
// when they are equal.
func lineDiff(f, o string) string {
	if f == o {
		return ""
	}
	if rest, ok := strings.CutPrefix(o, "\ufeff"); ok && !strings.HasPrefix(f, "\ufeff") {
		why := "oldString starts with a byte-order mark (U+FEFF), which is not part of the file's text (an edit keeps a file's BOM apart and writes it back): leave it out"
		if d := lineDiff(f, rest); d != "" {
			why += "; and " + d
		}
		return why
	}
	if d := lookalikeDiff(f, o); d != "" {
		return d
	}
	if norm.NFC.String(f) == norm.NFC.String(o) {
		return "they look the same, but encode accented letters differently: a letter followed by a combining mark against one precomposed character (Unicode NFD against NFC); copy the file's own encoding"
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
	return textDiff(ft[len(fi):], ot[len(oi):])
}

// textDiff names the part of a line that differs: what lies between the
// longest common start and end of f and o, widened to whole words (and so
// never cutting a character in two).
func textDiff(f, o string) string {
	p := 0
	for p < len(f) && p < len(o) && f[p] == o[p] {
		p++
	}
	q := 0
	for q < len(f)-p && q < len(o)-p && f[len(f)-1-q] == o[len(o)-1-q] {
		q++
	}
	for p > 0 && isWordByte(f[p-1]) {
		p--
	}
	for q > 0 && isWordByte(f[len(f)-q]) {
		q--
	}
	fm, om := trimBlanks(f[p:len(f)-q]), trimBlanks(o[p:len(o)-q])
	switch {
	case fm == "":
		return fmt.Sprintf("oldString has %s, which the file does not", clipShort(om))
	case om == "":
		return fmt.Sprintf("the file has %s, which oldString does not", clipShort(fm))
	}
	return fmt.Sprintf("the file has %s where oldString has %s", clipShort(fm), clipShort(om))
}

// trimBlanks drops the blanks around a part of a line, unless it is all
// blanks.
func trimBlanks(s string) string {
	if t := strings.Trim(s, " \t"); t != "" {
		return t
	}
	return s
}

// isWordByte reports whether b belongs to a word: a letter, a digit, an
// underscore, or any byte of a non-ASCII character.
func isWordByte(b byte) bool {
	return b == '_' || b >= utf8.RuneSelf || '0' <= b && b <= '9' || 'a' <= b|0x20 && b|0x20 <= 'z'
}

// reduce is a line without white space and with ASCII letters lowered,
// as the candidate search compares it.
func reduce(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := reduced[s[i]]; c != blank {
			b.WriteByte(c)
		}
	}
	return b.String()
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
func clip(s string) string { return clipTo(s, 120) }

// clipShort quotes a part of a line.
func clipShort(s string) string { return clipTo(s, 60) }

func clipTo(s string, n int) string {
	if len(s) > n {
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// utf16BOM names the encoding a UTF-16 byte-order mark at the start of
// text announces, or returns "".
func utf16BOM(text string) string {
	switch {
	case strings.HasPrefix(text, "\xff\xfe"):
		return "UTF-16 (little-endian)"
	case strings.HasPrefix(text, "\xfe\xff"):
		return "UTF-16 (big-endian)"
	}
	return ""
}
