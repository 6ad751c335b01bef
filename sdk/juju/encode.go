package juju

import (
	"encoding/base64"
	"encoding/binary"
	"unicode/utf8"

	"github.com/jujutools/juju/sdk/abi"
)

// encodeResult writes a CallResult as JSON, the way encoding/json would
// (without HTML escaping). Inside wasm, looking at every byte of a long text
// one at a time is what a tool result costs most: appendString looks at
// eight bytes at a time while they need no escaping. structured is spliced
// in as it is.
func encodeResult(res *abi.CallResult, structured []byte) []byte {
	n := len(structured) + 64
	for _, c := range res.Content {
		n += len(c.Text) + len(c.Data)*4/3 + 64
	}
	b := make([]byte, 0, n)
	b = append(b, '{')
	sep := func() {
		if len(b) > 1 {
			b = append(b, ',')
		}
	}
	if len(res.Content) > 0 {
		b = append(b, `"content":[`...)
		for i, c := range res.Content {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"type":`...)
			b = appendString(b, c.Type)
			if c.Text != "" {
				b = append(b, `,"text":`...)
				b = appendString(b, c.Text)
			}
			if len(c.Data) > 0 {
				b = append(b, `,"data":"`...)
				b = base64.StdEncoding.AppendEncode(b, c.Data)
				b = append(b, '"')
			}
			if c.MimeType != "" {
				b = append(b, `,"mimeType":`...)
				b = appendString(b, c.MimeType)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(structured) > 0 {
		sep()
		b = append(b, `"structured":`...)
		b = append(b, structured...)
	}
	if e := res.Error; e != nil {
		sep()
		b = append(b, `"error":{"code":`...)
		b = appendString(b, string(e.Code))
		b = append(b, `,"message":`...)
		b = appendString(b, e.Message)
		b = append(b, '}')
	}
	return append(b, '}')
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// plain reports whether none of the eight bytes of x needs escaping in a
// JSON string: all ASCII, none a control character, a quote or a backslash,
// and, when html is set, none of <, > and &.
func plain(x uint64, html bool) bool {
	has := func(v uint64) bool { return (v-ones)&^v&highs != 0 } // a zero byte
	return x&highs == 0 &&
		(x-0x20*ones)&^x&highs == 0 && // no byte below 0x20
		!has(x^('"'*ones)) && !has(x^('\\'*ones)) &&
		(!html || !has(x^('<'*ones)) && !has(x^('>'*ones)) && !has(x^('&'*ones)))
}

// appendString appends s as a JSON string, without HTML escaping.
func appendString(b []byte, s string) []byte { return appendJSONString(b, s, false) }

// appendJSONString appends s as a JSON string, byte for byte as
// encoding/json writes it (with html, as json.Marshal does; without, as an
// Encoder with SetEscapeHTML(false) does). Invalid UTF-8 becomes U+FFFD,
// and U+2028 and U+2029 are escaped.
func appendJSONString(b []byte, s string, html bool) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start, i := 0, 0
	for i < len(s) {
		for i+8 <= len(s) && plain(binary.LittleEndian.Uint64([]byte(s[i:i+8])), html) {
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
