package lsp

import (
	"testing"
	"unicode/utf8"
)

func TestColumnConversion(t *testing.T) {
	const (
		emoji    = "a😀b"        // 😀 is 1 code point, 2 UTF-16 units, 4 bytes
		combined = "e\u0301x"   // e + combining acute: 2 code points, 2 units
		mixed    = "/* 😀😀 */ s" // s at column 11, UTF-16 offset 12, byte 16
	)
	tests := []struct {
		name   string
		line   string
		column int // 1-based code points
		enc    encoding
		want   int // server offset
	}{
		{"ascii start", "abc", 1, utf16, 0},
		{"ascii middle", "abc", 3, utf16, 2},
		{"ascii end", "abc", 4, utf16, 3},
		{"past end of line", "abc", 40, utf16, 3},
		{"below 1", "abc", 0, utf16, 0},
		{"after surrogate pair", emoji, 3, utf16, 3},
		{"on surrogate pair", emoji, 2, utf16, 1},
		{"after pair utf-8", emoji, 3, utf8Units, 5},
		{"after pair utf-32", emoji, 3, utf32, 2},
		{"combining mark", combined, 3, utf16, 2},
		{"combining mark utf-8", combined, 3, utf8Units, 3},
		{"identifier after emoji", mixed, 11, utf16, 12},
		{"identifier after emoji utf-8", mixed, 11, utf8Units, 16},
		{"empty line", "", 5, utf16, 0},
		{"invalid byte", "a\xffb", 3, utf16, 2},
		{"invalid byte utf-8", "a\xffb", 3, utf8Units, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := toServer(tc.line, tc.column, tc.enc); got != tc.want {
				t.Errorf("toServer(%q, %d) = %d, want %d", tc.line, tc.column, got, tc.want)
			}
			if tc.column < 1 || tc.column > utf8.RuneCountInString(tc.line)+1 {
				return // clamped: no round trip
			}
			if got := fromServer(tc.line, tc.want, tc.enc); got != tc.column {
				t.Errorf("fromServer(%q, %d) = %d, want %d", tc.line, tc.want, got, tc.column)
			}
		})
	}
}

func TestFromServerEdges(t *testing.T) {
	for _, tc := range []struct {
		line   string
		offset int
		want   int
	}{
		{"a😀b", 2, 2},  // between the halves of the pair: the emoji
		{"a😀b", 99, 4}, // past the end: just after the line
		{"a😀b", -1, 1}, // negative: the start
		{"", 3, 1},     // empty line
		{"a😀b", 4, 4},  // exactly the end
		{"😀😀", 2, 2},   // after the first pair
	} {
		if got := fromServer(tc.line, tc.offset, utf16); got != tc.want {
			t.Errorf("fromServer(%q, %d) = %d, want %d", tc.line, tc.offset, got, tc.want)
		}
	}
}

// lines is the number of the protocol's lines; a final line break starts
// an empty last line, as in the protocol.
func (t *text) lines() int { return len(t.starts) }

// line returns the protocol's 0-based line n without its line break (""
// past the end).
func (t *text) line(n int) string {
	if n < 0 || n >= len(t.starts) {
		return ""
	}
	s, e := span(t.s, t.starts, n)
	return t.s[s:e]
}

func TestTextLines(t *testing.T) {
	tx := newText("one\r\ntwo\nthree\rfour\n")
	want := []string{"one", "two", "three", "four", ""}
	if tx.lines() != len(want) {
		t.Fatalf("lines = %d, want %d", tx.lines(), len(want))
	}
	for i, w := range want {
		if got := tx.line(i); got != w {
			t.Errorf("line %d = %q, want %q", i, got, w)
		}
	}
	// A CRLF file: the \r is no part of the line, so columns at its end
	// are the same as in an LF file.
	crlf := newText("a😀b\r\nnext")
	if l := crlf.line(0); l != "a😀b" || toServer(l, 4, utf16) != 4 || fromServer(l, 4, utf16) != 4 || toServer(l, 9, utf16) != 4 {
		t.Errorf("CRLF line %q: end column converts wrongly", l)
	}
	if tx.line(9) != "" || tx.line(-1) != "" {
		t.Error("lines out of range must be empty")
	}
}

// FuzzColumns checks that the conversions never panic and round-trip on
// every code-point boundary.
func FuzzColumns(f *testing.F) {
	f.Add("a😀b e\u0301 \r", 3)
	f.Add("\xff\xfe😀", 2)
	f.Fuzz(func(t *testing.T, line string, column int) {
		n := utf8.RuneCountInString(line)
		for _, enc := range []encoding{utf16, utf8Units, utf32} {
			off := toServer(line, column, enc)
			if off < 0 {
				t.Fatalf("negative offset %d", off)
			}
			if column >= 1 && column <= n+1 {
				if back := fromServer(line, off, enc); back != column {
					t.Fatalf("enc %d: column %d → %d → %d on %q", enc, column, off, back, line)
				}
			}
		}
	})
}

// A byte-order mark opening the file is no column of line 1, as read_file
// does not show it; the server counts it, one unit in every encoding.
func TestShownLineLeavesOutTheMark(t *testing.T) {
	tx := newText("\ufeffab 😀c\nx\ufeff\n")
	for _, enc := range []encoding{utf16, utf8Units, utf32} {
		if line := tx.shownLine(0); line != "ab 😀c" {
			t.Errorf("line 1 %q", line)
		}
		if p := tx.toServerPos(0, 1, enc, false); p != (position{Line: 0, Character: units(0xFEFF, enc)}) {
			t.Errorf("enc %d: column 1 of line 1 is %+v, want after the mark", enc, p)
		}
		if l, c, _ := tx.fromServerPos(position{Line: 0, Character: units(0xFEFF, enc) + 3}, enc, false); l != 1 || c != 4 {
			t.Errorf("enc %d: the 😀 of line 1 is %d:%d, want 1:4", enc, l, c)
		}
		if line := tx.shownLine(1); line != "x\ufeff" {
			t.Errorf("a mark past the file's start is text: %q", line)
		}
	}
	if p := tx.toServerPos(0, 1, utf8Units, false); p.Character != 3 {
		t.Errorf("the mark is 3 bytes in UTF-8, got %d", p.Character)
	}
}

// Lines are read_file's for the model, ended by "\n" alone, and the
// server's for the server: a lone "\r" ends a line to the protocol (and
// pyright) but not to gopls, read_file or the model.
func TestLoneCarriageReturn(t *testing.T) {
	tx := newText("package p\n\n// a\rb\nfunc F() {}\n")
	if n := tx.shownLines(); n != 4 {
		t.Fatalf("shownLines = %d, want 4 as read_file numbers them", n)
	}
	if l := tx.shownLine(3); l != "func F() {}" {
		t.Fatalf("line 4 is %q", l)
	}
	// F is read_file's 4:6: the protocol's line 4, gopls's line 3.
	if p := tx.toServerPos(3, 6, utf16, false); p != (position{Line: 4, Character: 5}) {
		t.Errorf("protocol's lines: 4:6 → %+v, want 4:5", p)
	}
	if p := tx.toServerPos(3, 6, utf16, true); p != (position{Line: 3, Character: 5}) {
		t.Errorf("gopls's lines: 4:6 → %+v, want 3:5", p)
	}
	for _, c := range []struct {
		pos    position
		lfOnly bool
	}{{position{Line: 4, Character: 5}, false}, {position{Line: 3, Character: 5}, true}} {
		if l, col, text := tx.fromServerPos(c.pos, utf16, c.lfOnly); l != 4 || col != 6 || text != "func F() {}" {
			t.Errorf("%+v (lfOnly %v) → %d:%d %q, want 4:6 on func F", c.pos, c.lfOnly, l, col, text)
		}
	}
	// After the lone "\r", in the comment: the protocol's line 3, column
	// 0 is read_file's 3:5 (the "\r" is a character of that line).
	if l, col, _ := tx.fromServerPos(position{Line: 3, Character: 0}, utf16, false); l != 3 || col != 6 {
		t.Errorf("b after the lone CR → %d:%d, want 3:6", l, col)
	}
	if p := tx.toServerPos(2, 6, utf16, false); p != (position{Line: 3, Character: 0}) {
		t.Errorf("3:6 → %+v, want the protocol's 3:0", p)
	}
	// CRLF ends one line in both tables.
	crlf := newText("a\r\nbc\r\n")
	if crlf.shownLines() != 2 || crlf.shownLine(1) != "bc" {
		t.Errorf("CRLF: %d lines, line 2 %q", crlf.shownLines(), crlf.shownLine(1))
	}
	if l, col, _ := crlf.fromServerPos(position{Line: 2, Character: 0}, utf16, false); l != 2 || col != 3 {
		t.Errorf("the end of a CRLF file is %d:%d, want the end of line 2", l, col)
	}
}

// FuzzPositions checks that a place read_file names goes to the server and
// back unchanged, whatever line breaks the text mixes and however the
// server counts lines.
func FuzzPositions(f *testing.F) {
	f.Add("\ufeffa😀\rb\r\nc\n\rd\xff\n")
	f.Add("package p\n\n// a\rb\nfunc F() {}\n")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 1000 {
			return // every column of every line is tried: quadratic
		}
		tx := newText(s)
		for n := 0; n < tx.shownLines(); n++ {
			cols := utf8.RuneCountInString(tx.shownLine(n)) + 1
			for c := 1; c <= cols; c++ {
				for _, enc := range []encoding{utf16, utf8Units, utf32} {
					for _, lfOnly := range []bool{false, true} {
						pos := tx.toServerPos(n, c, enc, lfOnly)
						if l, col, _ := tx.fromServerPos(pos, enc, lfOnly); l != n+1 || col != c {
							t.Fatalf("%q enc %d lfOnly %v: %d:%d → %+v → %d:%d", s, enc, lfOnly, n+1, c, pos, l, col)
						}
					}
				}
			}
		}
	})
}
