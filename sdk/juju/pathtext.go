package juju

import (
	"unicode"
	"unicode/utf8"

	"github.com/jujutools/juju/sdk/abi"
)

// PathText is how a path (or a file's name) stands in a line of a tool's
// text: as it is, unless it holds a character that would break the line or
// forge another (a control character such as a newline or a carriage
// return, U+2028 or U+2029) or starts with a double quote. Such a path is
// written as a JSON string, "a\nb.txt", which is also how a client passes it
// back in arguments. A repository can hold any name, and the text is where
// a model reads where one line ends.
func PathText(p string) string {
	if !quotedPath(p) {
		return p
	}
	return string(abi.AppendJSONString(nil, p, false))
}

// AppendPathText appends PathText(p) to b.
func AppendPathText(b []byte, p string) []byte {
	if !quotedPath(p) {
		return append(b, p...)
	}
	return abi.AppendJSONString(b, p, false)
}

// quotedPath reports whether PathText quotes p.
func quotedPath(p string) bool {
	if len(p) > 0 && p[0] == '"' {
		return true
	}
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(p[i:])
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return true
		}
		i += n
	}
	return false
}
