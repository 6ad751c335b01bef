package juju

import (
	"unicode"
	"unicode/utf8"
)

// LineText is how text from a repository or a plugin (a file name, a
// command, a description, a branch or a commit subject) stands in a line of
// a tool's text: as it is, unless it holds a character that would break the
// line, forge another or hide what it says — a control character (C0 such
// as a newline, a carriage return or ESC; DEL; C1 such as NEL), a format
// character (bidi embeddings, overrides and isolates, zero-width
// characters, the BOM, tags), U+2028 or U+2029 — or starts with a double
// quote. Such text is written as a JSON string with each of those
// characters escaped, "a\nb.txt", "x\u202ey", which is also how a client
// passes it back in arguments. A repository can hold any name and any
// content, and the text is where a model reads where one line ends.
func LineText(s string) string {
	if !quoted(s) {
		return s
	}
	return string(appendQuoted(nil, s))
}

// AppendLineText appends LineText(s) to b.
func AppendLineText(b []byte, s string) []byte {
	if !quoted(s) {
		return append(b, s...)
	}
	return appendQuoted(b, s)
}

// PathText is LineText for a path (or a file's name).
func PathText(p string) string { return LineText(p) }

// AppendPathText appends PathText(p) to b.
func AppendPathText(b []byte, p string) []byte { return AppendLineText(b, p) }

// quoted reports whether LineText quotes s.
func quoted(s string) bool {
	if len(s) > 0 && s[0] == '"' {
		return true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafeRune(r) {
			return true
		}
		i += n
	}
	return false
}

// unsafeRune reports whether LineText escapes the non-ASCII rune r: a C1
// control, a format character, or a line or paragraph separator.
func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// appendQuoted appends s as a JSON string, as encoding/json would, but
// with DEL and every rune unsafeRune names escaped as \uXXXX (a pair of
// them past U+FFFF), so the quoted text carries none of them either.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == 0x7f:
				b = appendU(b, rune(c))
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(b, `\ufffd`...)
		case unsafeRune(r):
			b = appendU(b, r)
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}

// appendU appends r as a JSON \u escape, as a surrogate pair past U+FFFF.
func appendU(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	if r > 0xffff {
		r -= 0x10000
		b = appendU(b, 0xd800+(r>>10))
		return appendU(b, 0xdc00+(r&0x3ff))
	}
	return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}
