package lsp

import (
	"strings"
	"unicode/utf8"
)

// encoding is the unit a server counts characters in.
type encoding int

const (
	utf16 encoding = iota // the protocol's default
	utf8Units
	utf32
)

// encodingNamed maps the positionEncoding a server chose; anything else is
// UTF-16, the protocol's default.
func encodingNamed(name string) encoding {
	switch name {
	case "utf-8":
		return utf8Units
	case "utf-32":
		return utf32
	}
	return utf16
}

// text is a file's content split into lines as the protocol splits them:
// at "\n", "\r\n" and a lone "\r".
type text struct {
	s      string
	starts []int // byte offset of each line's first byte
}

func newText(s string) *text {
	t := &text{s: s, starts: []int{0}}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			t.starts = append(t.starts, i+1)
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			t.starts = append(t.starts, i+1)
		}
	}
	return t
}

// lines is the number of lines; a final line break starts an empty last
// line, as in the protocol.
func (t *text) lines() int { return len(t.starts) }

// shownLines is the number of lines as read_file numbers them: a final
// line break ends the last line rather than starting an empty one.
func (t *text) shownLines() int {
	n := len(t.starts)
	if t.starts[n-1] == len(t.s) {
		n-- // empty after the final line break, or an empty file
	}
	return n
}

// line returns the 0-based line n without its line break ("" past the end).
func (t *text) line(n int) string {
	if n < 0 || n >= len(t.starts) {
		return ""
	}
	end := len(t.s)
	if n+1 < len(t.starts) {
		end = t.starts[n+1]
	}
	l := t.s[t.starts[n]:end]
	for len(l) > 0 && (l[len(l)-1] == '\n' || l[len(l)-1] == '\r') {
		l = l[:len(l)-1]
	}
	return l
}

// shown returns the 0-based line n as read_file shows it, with the
// number of units of enc the server counts before it: read_file leaves
// out a UTF-8 byte-order mark opening the file, so line 1's columns are
// counted after it, while the server, sent the file's bytes, counts it.
func (t *text) shown(n int, enc encoding) (line string, lead int) {
	line = t.line(n)
	if n == 0 && strings.HasPrefix(line, bom) {
		return line[len(bom):], units(0xFEFF, enc)
	}
	return line, 0
}

// bom is the UTF-8 byte-order mark.
const bom = "\ufeff"

// units is how many units of enc the rune r takes.
func units(r rune, enc encoding) int {
	switch enc {
	case utf8Units:
		if r == utf8.RuneError {
			return 1 // an invalid byte is one byte
		}
		return utf8.RuneLen(r)
	case utf32:
		return 1
	}
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// toServer converts a 1-based column counted in code points on line into
// the server's 0-based character offset. A column past the end of the line
// is its end; one below 1 is its start.
func toServer(line string, column int, enc encoding) int {
	off, cp := 0, 1
	for i := 0; i < len(line) && cp < column; cp++ {
		r, size := utf8.DecodeRuneInString(line[i:])
		if r == utf8.RuneError && size == 1 && enc == utf8Units {
			off++
		} else {
			off += units(r, enc)
		}
		i += size
	}
	return off
}

// fromServer converts the server's 0-based character offset on line into
// a 1-based column counted in code points. An offset inside a code point
// (between the halves of a surrogate pair) is that code point; one past
// the end of the line is the column just after it.
func fromServer(line string, offset int, enc encoding) int {
	if offset <= 0 {
		return 1
	}
	col, off := 1, 0
	for i := 0; i < len(line); col++ {
		r, size := utf8.DecodeRuneInString(line[i:])
		n := units(r, enc)
		if r == utf8.RuneError && size == 1 && enc == utf8Units {
			n = 1
		}
		if off+n > offset {
			return col // offset falls inside this code point
		}
		off += n
		i += size
		if off == offset {
			return col + 1
		}
	}
	return col
}
