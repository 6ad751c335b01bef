package abi

import (
	"encoding/binary"
	"unicode/utf8"
)

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plainWord reports whether none of the eight bytes of x needs escaping in a
// JSON string: all ASCII, none a control character, a quote or a backslash,
// and, when html is set, none of <, > and &.
func plainWord(x uint64, html bool) bool {
	has := func(v uint64) bool { return (v-ones)&^v&highs != 0 } // a zero byte
	return x&highs == 0 &&
		(x-0x20*ones)&^x&highs == 0 && // no byte below 0x20
		!has(x^('"'*ones)) && !has(x^('\\'*ones)) &&
		(!html || !has(x^('<'*ones)) && !has(x^('>'*ones)) && !has(x^('&'*ones)))
}

// AppendJSONString appends s as a JSON string, byte for byte as
// encoding/json writes it (with html, as json.Marshal does; without, as an
// Encoder with SetEscapeHTML(false) does). Invalid UTF-8 becomes U+FFFD,
// and U+2028 and U+2029 are escaped.
func AppendJSONString(b []byte, s string, html bool) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start, i := 0, 0
	for i < len(s) {
		for i+8 <= len(s) && plainWord(binary.LittleEndian.Uint64([]byte(s[i:i+8])), html) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!html || c != '<' && c != '>' && c != '&') {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
