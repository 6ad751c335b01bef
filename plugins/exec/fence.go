package exec

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// writeFenced writes text between the lines <<<label fence>>> and <<<end
// of label fence>>>, escaped as appendClean does and cut where its escaped
// form would pass budget bytes. It returns how many bytes of text it
// shows: fewer than len(text) when it cut.
func writeFenced(b *strings.Builder, label, fence, text string, budget int) int {
	fmt.Fprintf(b, "<<<%s %s>>>\n", label, fence)
	out, used := appendClean(make([]byte, 0, min(len(text), budget)+1), text, budget)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	b.Write(out)
	fmt.Fprintf(b, "<<<end of %s %s>>>\n", label, fence)
	return used
}

// appendClean appends s to dst as text a reader (a model, or a terminal
// showing the result) takes only as text: a control character but the
// line feed and the tab — ESC, BEL, a carriage return, backspace, DEL,
// a C1 control such as CSI — is written as \xNN or \uNNNN, so an escape
// sequence cannot clear a screen, move the cursor over what came before,
// set a clipboard (OSC 52) or hide a line; so are the line and paragraph
// separators U+2028 and U+2029 and the bidirectional embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069), which reorder
// what a line seems to say. A carriage return before a line feed ends the
// line with it and is dropped. A run of bytes that is not UTF-8 is one
// U+FFFD. It stops before the piece that would take dst past budget
// bytes and returns how many bytes of s it took.
func appendClean(dst []byte, s string, budget int) ([]byte, int) {
	return appendEscaped(dst, s, budget, hidesText)
}

// appendEscaped is appendClean escaping the non-ASCII runes hides names.
func appendEscaped(dst []byte, s string, budget int, hides func(rune) bool) ([]byte, int) {
	for i := 0; i < len(s); {
		c, n := s[i], 1
		var piece string
		switch {
		case c == '\n' || c == '\t' || c >= 0x20 && c < 0x7f:
			piece = s[i : i+1]
		case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
			piece = ""
		case c < utf8.RuneSelf:
			piece = fmt.Sprintf(`\x%02x`, c)
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				for n < len(s)-i {
					if r, size := utf8.DecodeRuneInString(s[i+n:]); r != utf8.RuneError || size != 1 {
						break
					}
					n++
				}
				piece = "\uFFFD"
			case hides(r) && r > 0xffff:
				piece, n = fmt.Sprintf(`\U%08x`, r), size
			case hides(r):
				piece, n = fmt.Sprintf(`\u%04x`, r), size
			default:
				piece, n = s[i:i+size], size
			}
		}
		if len(dst)+len(piece) > budget {
			return dst, i
		}
		dst = append(dst, piece...)
		i += n
	}
	return dst, len(s)
}

// hidesInLine reports whether a line of juju's own (cleanLine) escapes
// the non-ASCII rune r: what juju.LineText escapes, every format
// character included (the bidi marks U+200E, U+200F and U+061C, the
// zero-width characters, the BOM, tags), not only the overrides and
// isolates hidesText names.
func hidesInLine(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// hidesText reports whether appendClean escapes the non-ASCII rune r.
func hidesText(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}
