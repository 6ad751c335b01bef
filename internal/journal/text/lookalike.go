package text

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"
)

// Characters that look like others. A model that writes oldString from
// what it remembers of the file, rather than copying it, turns a file's
// curly quotes straight (or its straight ones curly), a no-break space
// into a space, and drops a zero-width character it never saw; the line
// then looks the same on screen and differs in bytes, and "the spacing
// differs" or a quoted word of the line does not say which character to
// copy. Edits stay exact: these only name the characters.

// lookalikes maps a character to the plain ASCII one it is taken for, or
// to -1 for a character that shows as nothing. U+FEFF is not one: at the
// start of oldString it is a byte-order mark, which lineDiff names.
var lookalikes = map[rune]rune{
	'\u2018': '\'', '\u2019': '\'', '\u201a': '\'', '\u201b': '\'', '\u2032': '\'',
	'\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u2033': '"',
	'\u00a0': ' ', '\u2007': ' ', '\u202f': ' ', '\u2002': ' ', '\u2003': ' ', '\u2009': ' ', '\u200a': ' ', '\u3000': ' ',
	'\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2212': '-',
	'\u200b': -1, '\u200c': -1, '\u200d': -1, '\u2060': -1, '\u00ad': -1,
}

// runeNames names the characters of lookalikes, and the ASCII ones they
// are taken for.
var runeNames = map[rune]string{
	'\'':     "a straight apostrophe",
	'"':      "a straight double quote",
	' ':      "a space",
	'-':      "a hyphen-minus",
	'\u2018': "a left single curly quote",
	'\u2019': "a right single curly quote (curly apostrophe)",
	'\u201a': "a low single curly quote",
	'\u201b': "a reversed single curly quote",
	'\u2032': "a prime",
	'\u201c': "a left double curly quote",
	'\u201d': "a right double curly quote",
	'\u201e': "a low double curly quote",
	'\u201f': "a reversed double curly quote",
	'\u2033': "a double prime",
	'\u00a0': "a no-break space",
	'\u2007': "a figure space",
	'\u202f': "a narrow no-break space",
	'\u2002': "an en space",
	'\u2003': "an em space",
	'\u2009': "a thin space",
	'\u200a': "a hair space",
	'\u3000': "an ideographic space",
	'\u2010': "a hyphen",
	'\u2011': "a non-breaking hyphen",
	'\u2012': "a figure dash",
	'\u2013': "an en dash",
	'\u2212': "a minus sign",
	'\u200b': "a zero-width space",
	'\u200c': "a zero-width non-joiner",
	'\u200d': "a zero-width joiner",
	'\u2060': "a word joiner",
	'\u00ad': "a soft hyphen",
}

// foldRune is the plain character r is taken for (r itself when none),
// or -1 when r shows as nothing.
func foldRune(r rune) rune {
	if f, ok := lookalikes[r]; ok {
		return f
	}
	return r
}

// hasLookalike reports whether s holds a character of lookalikes.
// Every one starts with the byte 0xC2 (U+00A0, U+00AD), 0xE2 (U+2xxx) or
// 0xE3 (U+3000), so most of a file is one comparison a byte.
func hasLookalike(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == 0xc2 || c == 0xe2 || c == 0xe3 {
			r, _ := utf8.DecodeRuneInString(s[i:])
			if _, ok := lookalikes[r]; ok {
				return true
			}
		}
	}
	return false
}

// fold is s with each character of lookalikes made the plain one it is
// taken for, and those that show as nothing left out.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if f := foldRune(r); f >= 0 {
			b.WriteRune(f)
		}
	}
	return b.String()
}

// describeRune names a character for a message: itself quoted, its code
// point and, for a lookalike, what it is.
func describeRune(r rune) string {
	name, ok := runeNames[r]
	if !ok {
		return fmt.Sprintf("%q (U+%04X)", r, r)
	}
	if r < utf8.RuneSelf {
		return fmt.Sprintf("%s (%q)", name, r)
	}
	return fmt.Sprintf("%s (%q, U+%04X)", name, r, r)
}

// lookalikeDiff says which lookalike characters keep f and o apart when
// they are equal once folded: up to maxExplained distinct differences,
// each named with its code point. It returns "" when they differ in
// anything else, or not at all.
func lookalikeDiff(f, o string) string {
	if f == o {
		return ""
	}
	var whys []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			whys = append(whys, s)
		}
	}
	for f != "" || o != "" {
		fr, fs := utf8.DecodeRuneInString(f)
		or, os := utf8.DecodeRuneInString(o)
		switch {
		case f != "" && o != "" && fr == or:
			f, o = f[fs:], o[os:]
		case f != "" && foldRune(fr) < 0:
			add(fmt.Sprintf("the file has %s, which oldString does not", describeRune(fr)))
			f = f[fs:]
		case o != "" && foldRune(or) < 0:
			add(fmt.Sprintf("oldString has %s, which the file does not", describeRune(or)))
			o = o[os:]
		case f != "" && o != "" && foldRune(fr) == foldRune(or):
			add(fmt.Sprintf("the file has %s where oldString has %s", describeRune(fr), describeRune(or)))
			f, o = f[fs:], o[os:]
		default:
			return ""
		}
	}
	n := len(whys)
	if n > maxExplained {
		whys = append(whys[:maxExplained], fmt.Sprintf("%d more", n-maxExplained))
	}
	return strings.Join(whys, "; ")
}

// lookalikeMatch finds old in text once lookalike characters are folded
// in both: the line where it starts, and how the file's text there
// differs from old. ok is false when old is not there so either.
func lookalikeMatch(text, old string) (line int, why string, ok bool) {
	if !hasLookalike(old) && !hasLookalike(text) {
		return 0, "", false
	}
	ft, fo := fold(text), fold(old)
	i := strings.Index(ft, fo)
	if i < 0 || fo == "" {
		return 0, "", false
	}
	// The original text of the match: walk text, counting folded bytes.
	start, end := -1, len(text)
	n := 0
	for p, r := range text {
		if n == i && start < 0 && foldRune(r) >= 0 {
			start = p
		}
		if n == i+len(fo) && start >= 0 {
			end = p
			break
		}
		if f := foldRune(r); f >= 0 {
			n += utf8.RuneLen(f)
		}
	}
	if start < 0 {
		return 0, "", false
	}
	why = lookalikeDiff(text[start:end], old)
	if why == "" {
		return 0, "", false
	}
	return strings.Count(text[:start], "\n") + 1, why, true
}

// entityMatch reports whether old is in text once its HTML entities
// (&lt; &amp; &quot; &#39; …) are read as the characters they stand for,
// at which line, and which entities old holds.
func entityMatch(text, old string) (int, string, bool) {
	if !strings.Contains(old, "&") || !strings.Contains(old, ";") {
		return 0, "", false
	}
	u := html.UnescapeString(old)
	if u == old {
		return 0, "", false
	}
	i := strings.Index(text, u)
	if i < 0 {
		return 0, "", false
	}
	var names []string
	seen := map[string]bool{}
	for s := old; len(names) < 5; {
		a := strings.IndexByte(s, '&')
		if a < 0 {
			break
		}
		b := strings.IndexByte(s[a:], ';')
		if b < 0 {
			break
		}
		e := s[a : a+b+1]
		if html.UnescapeString(e) != e && !seen[e] {
			seen[e] = true
			names = append(names, fmt.Sprintf("%s for %q", e, html.UnescapeString(e)))
		}
		s = s[a+1:]
	}
	return strings.Count(text[:i], "\n") + 1, strings.Join(names, ", "), true
}

// escapeMatch reports whether old is in text once its backslash escapes
// (\n, \t, \r, \", \\) are read as the characters they stand for, as when
// oldString was escaped twice on its way (JSON in JSON), and at which
// line. Only an old that holds no line break is tried: one that does was
// not escaped twice.
func escapeMatch(text, old string) (int, bool) {
	if strings.ContainsAny(old, "\n") || !strings.Contains(old, `\`) {
		return 0, false
	}
	u := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\r`, "\r", `\"`, `"`, `\\`, `\`).Replace(old)
	if u == old || !strings.ContainsAny(u, "\n\t") {
		return 0, false
	}
	i := strings.Index(text, u)
	if i < 0 {
		return 0, false
	}
	return strings.Count(text[:i], "\n") + 1, true
}
