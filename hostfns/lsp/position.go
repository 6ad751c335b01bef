package lsp

import (
	"math"
	"sort"
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

// text is a file's content split into lines twice: as the protocol
// splits them (at "\n", "\r\n" and a lone "\r"), and at "\n" alone, as
// read_file, search and the model number them, and as gopls does (Go's
// lexer takes a lone "\r" for a blank). A Go comment holding a stray
// "\r" is two lines to the protocol's rule and one to gopls and read_file,
// so positions go through byte offsets: the model's line and column
// are read_file's, the server's line is its own.
type text struct {
	s      string
	starts []int // byte offset of each line's first byte, the protocol's lines
	lf     []int // byte offset of each line's first byte, lines ended by "\n"
}

func newText(s string) *text {
	t := &text{s: s, starts: []int{0}, lf: []int{0}}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			t.starts = append(t.starts, i+1)
			t.lf = append(t.lf, i+1)
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
				t.lf = append(t.lf, i+1)
			}
			t.starts = append(t.starts, i+1)
		}
	}
	return t
}

// shownLines is the number of lines as read_file numbers them: ended by
// "\n", a final one ending the last line rather than starting an empty
// one.
func (t *text) shownLines() int {
	n := len(t.lf)
	if t.lf[n-1] == len(t.s) {
		n-- // empty after the final line break, or an empty file
	}
	return n
}

// span is the byte range of line n of the table st, without the line
// break that ends it ("\n", "\r\n", or a lone "\r" in the protocol's
// table).
func span(s string, st []int, n int) (start, end int) {
	start, end = st[n], len(s)
	if n+1 < len(st) {
		end = st[n+1]
		switch {
		case end > start && s[end-1] == '\n':
			end--
			if end > start && s[end-1] == '\r' {
				end--
			}
		case end > start && s[end-1] == '\r':
			end--
		}
	}
	return start, end
}

// shownSpan is the byte range of read_file's 0-based line n: without its
// line break ("\n" or "\r\n"), and, for line 1, without the byte-order
// mark read_file leaves out.
func (t *text) shownSpan(n int) (start, end int) {
	start, end = span(t.s, t.lf, n)
	if n == 0 && strings.HasPrefix(t.s[start:end], bom) {
		start += len(bom)
	}
	return start, end
}

// shownLine is read_file's 0-based line n as it shows it.
func (t *text) shownLine(n int) string {
	if n < 0 || n >= len(t.lf) {
		return ""
	}
	s, e := t.shownSpan(n)
	return t.s[s:e]
}

// serverLines is the line table of a server: lines ended by "\n" alone
// for lfOnly (gopls), else the protocol's.
func (t *text) serverLines(lfOnly bool) []int {
	if lfOnly {
		return t.lf
	}
	return t.starts
}

// toServerPos converts read_file's 0-based line n and a 1-based column
// counted in code points on it into the server's position. A column past
// the end of the line is its end; one below 1 is its start.
func (t *text) toServerPos(n, column int, enc encoding, lfOnly bool) position {
	if n < 0 || n >= len(t.lf) {
		return position{Line: n}
	}
	start, end := t.shownSpan(n)
	line := t.s[start:end]
	b, cp := start, 1
	for i := 0; i < len(line) && cp < column; cp++ {
		_, size := utf8.DecodeRuneInString(line[i:])
		i += size
		b = start + i
	}
	st := t.serverLines(lfOnly)
	l := sort.SearchInts(st, b+1) - 1
	return position{Line: l, Character: toServer(t.s[st[l]:b], math.MaxInt, enc)}
}

// fromServerPos converts the server's position into read_file's 1-based
// line and code-point column, with that line's text. An offset inside a
// code point (between the halves of a surrogate pair) is that code point;
// one past the end of its line is the column just after it. A position
// after the last line as read_file numbers them (the end of a file that
// ends in a line break, where gopls and pyright place "unexpected end of
// file") is the end of the last line: the line after it is one read_file
// says is past the end.
func (t *text) fromServerPos(pos position, enc encoding, lfOnly bool) (line, col int, lineText string) {
	st := t.serverLines(lfOnly)
	b := len(t.s)
	switch {
	case pos.Line < 0:
		b = 0
	case pos.Line < len(st):
		s, e := span(t.s, st, pos.Line)
		l := t.s[s:e]
		col := fromServer(l, pos.Character, enc)
		b = s
		for i := 0; i < len(l) && col > 1; col-- {
			_, size := utf8.DecodeRuneInString(l[i:])
			i += size
			b = s + i
		}
	}
	n := t.shownLines()
	if n == 0 {
		return 1, 1, ""
	}
	i := sort.SearchInts(t.lf, b+1) - 1
	if i >= n {
		i, b = n-1, len(t.s)
	}
	start, end := t.shownSpan(i)
	b = min(max(b, start), end)
	return i + 1, utf8.RuneCountInString(t.s[start:b]) + 1, t.s[start:end]
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
