package abi

import (
	"encoding/binary"
	"strconv"
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

// ReadJSONString reads the JSON string whose opening quote is b[i], as
// encoding/json would decode it, and returns it with the index just past
// its closing quote. It reports false for a malformed string and where the
// two could differ: a \u escape of a surrogate (encoding/json pairs or
// replaces them) and invalid UTF-8 (which it replaces with U+FFFD). The
// SDK's decoder and the host's decoder of call results both read strings
// with it.
func ReadJSONString(b []byte, i int) (string, int, bool) {
	start := i + 1
	ascii := true
	for i = start; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			s := b[start:i]
			if !ascii && !utf8.Valid(s) {
				return "", i, false
			}
			return string(s), i + 1, true
		case c == '\\':
			return readEscaped(b, start, i)
		case c < 0x20:
			return "", i, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", i, false
}

// readEscaped finishes ReadJSONString for a string holding escapes: b[i] is
// its first backslash, b[start:i] what came before it.
func readEscaped(b []byte, start, i int) (string, int, bool) {
	out := append([]byte(nil), b[start:i]...)
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			if !utf8.Valid(out) {
				return "", i, false
			}
			return string(out), i + 1, true
		case c < 0x20:
			return "", i, false
		case c != '\\':
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(b) {
			return "", i, false
		}
		e := b[i+1]
		i += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if i+4 > len(b) {
				return "", i, false
			}
			hex := b[i : i+4]
			for _, h := range hex {
				if !isHex(h) {
					return "", i, false
				}
			}
			r, _ := strconv.ParseUint(string(hex), 16, 32)
			if r >= 0xd800 && r < 0xe000 {
				return "", i, false
			}
			out = utf8.AppendRune(out, rune(r))
			i += 4
		default:
			return "", i, false
		}
	}
	return "", i, false
}

// jsonStringLen is len(AppendJSONString(nil, string(s), html)), counted
// without writing it, or a number past limit once it is known to be past
// it (a string's escaped length is at least its length plus its quotes).
// It takes a table look-up per ASCII byte: the host counts up to 64 MiB of
// a plugin's splices with it (Resolve).
func jsonStringLen(s []byte, html bool, limit int) int {
	n := len(s) + 2
	extra := &asciiEscapes[0]
	if html {
		extra = &asciiEscapes[1]
	}
	for i := 0; i < len(s) && n <= limit; {
		end := min(len(s), i+4096) // then look at the limit again
		for i < end {
			if c := s[i]; c < utf8.RuneSelf {
				n += int(extra[c])
				i++
				continue
			}
			r, size := utf8.DecodeRune(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				n += 5 // \ufffd for one byte
			case r == '\u2028' || r == '\u2029':
				n += 3 // \u2028 for three bytes
			}
			i += size
		}
	}
	return n
}

// asciiEscapes holds, for each ASCII byte, how many bytes AppendJSONString
// writes for it beyond the byte itself: without HTML escaping, then with.
var asciiEscapes = func() (t [2][utf8.RuneSelf]uint8) {
	for c := range utf8.RuneSelf {
		for h, html := range []bool{false, true} {
			t[h][c] = uint8(len(AppendJSONString(nil, string(rune(c)), html)) - 3)
		}
	}
	return t
}()
