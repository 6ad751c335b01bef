package visible

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// minRun is the shortest run of spaces shown as a marker.
const minRun = 3

// markOpen and markClose enclose a marker; a literal markOpen is escaped.
const (
	markOpen  = '⟨'
	markClose = '⟩'
)

// String renders s for the owner (see the package comment).
func String(s string) string {
	var b strings.Builder
	write(&b, s, false)
	return b.String()
}

// Quote renders s between double quotes, a " inside becoming \".
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	write(&b, s, true)
	b.WriteByte('"')
	return b.String()
}

// Join renders each of elems and joins them with sep.
func Join(elems []string, sep string) string {
	out := make([]string, len(elems))
	for i, e := range elems {
		out[i] = String(e)
	}
	return strings.Join(out, sep)
}

// write renders s into b; quoted escapes " too.
func write(b *strings.Builder, s string, quoted bool) {
	wordEnd, mixed := 0, false
	for i := 0; i < len(s); {
		if i >= wordEnd {
			wordEnd, mixed = word(s, i)
		}
		if s[i] == ' ' {
			n := 1
			for i+n < len(s) && s[i+n] == ' ' {
				n++
			}
			if n >= minRun {
				b.WriteRune(markOpen)
				b.WriteString(strconv.Itoa(n) + " spaces")
				b.WriteRune(markClose)
			} else {
				b.WriteString(s[i : i+n])
			}
			i += n
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			hex(b, `\x`, rune(s[i]), 2)
		case mixed && lookalike(r):
			hexRune(b, r)
		default:
			writeRune(b, r, quoted)
		}
		i += size
	}
}

// word returns the end of the word starting at i (a run without white
// space; a white space character is a word of its own) and whether it
// mixes ASCII letters or digits with other characters that could pass for
// them: "g\u0456thub.com" (a Cyrillic і), "\u2013rf" (an en dash),
// "e\u0301" (a combining accent).
func word(s string, i int) (end int, mixed bool) {
	if r, size := utf8.DecodeRuneInString(s[i:]); unicode.IsSpace(r) || r < 0x20 {
		return i + size, false
	}
	ascii, other := false, false
	for end = i; end < len(s); {
		r, size := utf8.DecodeRuneInString(s[end:])
		if unicode.IsSpace(r) || r < 0x20 {
			break
		}
		switch {
		case r < 0x80:
			ascii = ascii || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		case lookalike(r):
			other = true
		}
		end += size
	}
	if !ascii && other {
		return end, disguised(s[i:end])
	}
	return end, ascii && other
}

// disguised reports whether w, a word without ASCII letters or digits,
// could pass for another word: every letter of it looks like an ASCII
// one (\u0435\u0445\u0435\u0441.\u0440\u0443, Cyrillic, reads as exec.py),
// a character is an ASCII one in another form (fullwidth, mathematical, a
// ligature), it is not in the composed form (\u0438\u0306 looks like
// \u0439), or its letters come from more than one script, those written
// together in East Asia apart. A word of one script written as its script
// is (привет, Ελληνικά, 日本語) is not.
func disguised(w string) bool {
	if !norm.NFC.IsNormalString(w) {
		return true
	}
	letters, alike := 0, 0
	var first *unicode.RangeTable
	for _, r := range w {
		if asciiForm(r) {
			return true
		}
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		if asciiLookalikes[r] {
			alike++
		}
		sc := script(r)
		switch {
		case first == nil:
			first = sc
		case sc != first && !(eastAsian(sc) && eastAsian(first)):
			return true
		}
	}
	return letters > 0 && alike == letters
}

// asciiForm reports whether r, not ASCII, is an ASCII character in
// another form: its compatibility decomposition is printable ASCII (ａ, 𝐚,
// ﬁ, ª, the fullwidth ； and ／). The ellipsis is not one: it is the mark
// of a cut (Ellipsis), which a rendering of a rendering shows as it is.
func asciiForm(r rune) bool {
	if r < 0x80 || string(r) == Ellipsis {
		return false
	}
	var buf [utf8.UTFMax]byte
	d := norm.NFKC.Properties(buf[:utf8.EncodeRune(buf[:], r)]).Decomposition()
	for i := 0; i < len(d); i++ {
		if c := d[i]; c <= ' ' || c >= 0x7f {
			return false
		}
	}
	return len(d) > 0
}

// commonScripts are tried first; a letter of none of them is looked up in
// every script.
var commonScripts = []*unicode.RangeTable{
	unicode.Latin, unicode.Cyrillic, unicode.Greek, unicode.Armenian, unicode.Cherokee,
	unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Bopomofo,
	unicode.Arabic, unicode.Hebrew, unicode.Devanagari, unicode.Thai, unicode.Georgian,
}

// script returns the script of the letter r (nil for none).
func script(r rune) *unicode.RangeTable {
	for _, t := range commonScripts {
		if unicode.Is(t, r) {
			return t
		}
	}
	for _, t := range unicode.Scripts {
		if unicode.Is(t, r) {
			return t
		}
	}
	return nil
}

// eastAsian reports whether t is one of the scripts Chinese, Japanese and
// Korean write in one word.
func eastAsian(t *unicode.RangeTable) bool {
	return t == unicode.Han || t == unicode.Hiragana || t == unicode.Katakana || t == unicode.Hangul || t == unicode.Bopomofo
}

// asciiLookalikes are letters of other scripts that show as an ASCII
// letter or digit: a word made of them alone reads as an ASCII word.
var asciiLookalikes = func() map[rune]bool {
	m := map[rune]bool{}
	for _, r := range "" +
		// Cyrillic
		"аеорсухѕіјһԁԛԝӏүє" +
		"АВЕЗКМНОРСТУХЅІЈҮԚԜӀЄ" +
		// Greek
		"ονιρυακχϲϳ" +
		"ΑΒΕΖΗΙΚΜΝΟΡΤΥΧϹͿ" +
		// Armenian
		"օսհոզցՕՍ" +
		// Latin beyond Latin-1
		"ıȷɑɡɩɪʏᴀᴄᴅᴇᴊᴋᴍᴏᴘᴛᴜᴠᴡᴢʀʙʜʟɴ" +
		// Cherokee
		"ᎠᎡᎢᎩᎪᎫᎬᎳᎷᎻᎼᏀᏃᏏᏒᏔᏙᏚᏞᏟᏢᏦᏴ" {
		m[r] = true
	}
	return m
}()

// lookalike reports whether r, beside ASCII letters, could be taken for
// one of them or for ASCII punctuation: every non-ASCII character but the
// accented letters of Latin-1 (é, ñ, ü …), which show as what they are.
func lookalike(r rune) bool {
	if r < 0x80 {
		return false
	}
	return !(r >= 0xc0 && r <= 0xff && r != 0xd7 && r != 0xf7)
}

// hexRune writes r as \uNNNN or \UNNNNNNNN.
func hexRune(b *strings.Builder, r rune) {
	if r > 0xffff {
		hex(b, `\U`, r, 8)
	} else {
		hex(b, `\u`, r, 4)
	}
}

// writeRune renders one valid rune other than a space.
func writeRune(b *strings.Builder, r rune, quoted bool) {
	switch {
	case r == '\\':
		b.WriteString(`\\`)
	case r == '"' && quoted:
		b.WriteString(`\"`)
	case r == '\t':
		b.WriteString(`\t`)
	case r == '\n':
		b.WriteString(`\n`)
	case r == '\r':
		b.WriteString(`\r`)
	case r < 0x20 || r == 0x7f:
		hex(b, `\x`, r, 2)
	case r == markOpen || hidden(r):
		hexRune(b, r)
	default:
		b.WriteRune(r)
	}
}

// hidden reports whether r does not show as itself: controls, format
// characters, unassigned and private-use code points (none of them
// graphic), spaces other than ' ', and the graphic characters that draw
// nothing (the default-ignorable ones, variation selectors, the braille
// blank).
func hidden(r rune) bool {
	switch {
	case !unicode.IsGraphic(r):
		return true
	case r != ' ' && unicode.Is(unicode.Zs, r):
		return true
	case r == 0x2800:
		return true
	}
	return unicode.In(r, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

// hex writes prefix and r as digits lowercase hex digits.
func hex(b *strings.Builder, prefix string, r rune, digits int) {
	h := strconv.FormatInt(int64(r), 16)
	b.WriteString(prefix)
	b.WriteString(strings.Repeat("0", digits-len(h)))
	b.WriteString(h)
}

// Shows reports whether every character of s shows as itself, as in a
// rendering: no control, invisible or invalid character, no run of spaces.
// Text already rendered (an audit record) is printed as it is when it
// shows, and rendered again (its backslashes doubled) when it does not.
func Shows(s string) bool {
	if !utf8.ValidString(s) || strings.Contains(s, "   ") {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || hidden(r) {
			return false
		}
	}
	return true
}

// JSON rewrites every character of the JSON text js that does not show as
// itself (C1 controls, DEL, bidi overrides and isolates, zero-width and
// other format or invisible characters: those String renders as \u
// escapes) as a JSON \u escape, a surrogate pair above U+FFFF. encoding/json
// escapes the C0 controls alone, so a name holding U+009B (the one-byte
// CSI some terminals act on) or U+202E came out raw in JSON printed on the
// owner's terminal. The text decodes to the same value: such characters
// occur only inside JSON strings, where \u escapes mean the same.
func JSON(js []byte) []byte {
	var out []byte
	done := 0
	for i := 0; i < len(js); {
		if js[i] < utf8.RuneSelf {
			if js[i] != 0x7f {
				i++
				continue
			}
		}
		r, size := utf8.DecodeRune(js[i:])
		if !(r == 0x7f || r >= utf8.RuneSelf && r != utf8.RuneError && hidden(r)) {
			i += size
			continue
		}
		out = append(out, js[done:i]...)
		if r > 0xffff {
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		} else {
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += size
		done = i
	}
	if out == nil {
		return js
	}
	return append(out, js[done:]...)
}
