package text

import (
	"bytes"
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
)

// The UTF-16 encodings a byte-order mark announces, as Style.UTF16 and
// the read host function name them.
const (
	UTF16LE = "utf-16le"
	UTF16BE = "utf-16be"
)

// maxUTF16 bounds the UTF-16 files edited as text: the host's reads
// convert no larger one either.
const maxUTF16 = 16 << 20

// DecodeUTF16 returns the UTF-8 text of content and its encoding when
// content is UTF-16 that starts with a byte-order mark, and encodes back
// to the very same bytes: an even length, no unpaired surrogate, at most
// 16 MiB. Anything else is not taken for UTF-16 (ok false), so an edit
// never rewrites bytes it could not read.
func DecodeUTF16(content []byte) (text, enc string, ok bool) {
	var order binary.ByteOrder
	switch {
	case len(content)%2 != 0 || len(content) > maxUTF16:
		return "", "", false
	case bytes.HasPrefix(content, []byte("\xff\xfe")):
		order, enc = binary.LittleEndian, UTF16LE
	case bytes.HasPrefix(content, []byte("\xfe\xff")):
		order, enc = binary.BigEndian, UTF16BE
	default:
		return "", "", false
	}
	units := content[2:]
	b := make([]byte, 0, len(units)*3/2)
	for i := 0; i < len(units); i += 2 {
		u := rune(order.Uint16(units[i:]))
		switch {
		case utf16.IsSurrogate(u):
			if u >= 0xdc00 || i+4 > len(units) {
				return "", "", false // a low surrogate first, or a high one last
			}
			r := utf16.DecodeRune(u, rune(order.Uint16(units[i+2:])))
			if r == utf8.RuneError {
				return "", "", false
			}
			b = utf8.AppendRune(b, r)
			i += 2
		default:
			b = utf8.AppendRune(b, u)
		}
	}
	return string(b), enc, true
}

// EncodeUTF16 returns s in the UTF-16 encoding enc, byte-order mark
// first. s is valid UTF-8: it comes from DecodeUTF16 and from edits, whose
// strings the host checked; an invalid byte would become U+FFFD.
func EncodeUTF16(s, enc string) []byte {
	var order binary.AppendByteOrder = binary.LittleEndian
	if enc == UTF16BE {
		order = binary.BigEndian
	}
	out := make([]byte, 0, 2+2*len(s))
	out = order.AppendUint16(out, 0xfeff)
	for _, r := range s {
		if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
			out = order.AppendUint16(order.AppendUint16(out, uint16(r1)), uint16(r2))
			continue
		}
		out = order.AppendUint16(out, uint16(r))
	}
	return out
}
