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
		line, lead := tx.shown(0, enc)
		if line != "ab 😀c" || lead != units(0xFEFF, enc) {
			t.Errorf("enc %d: line 1 %q, %d units before it", enc, line, lead)
		}
		if line, lead := tx.shown(1, enc); line != "x\ufeff" || lead != 0 {
			t.Errorf("enc %d: a mark past the file's start is text: %q, %d", enc, line, lead)
		}
	}
	if _, lead := tx.shown(0, utf8Units); lead != 3 {
		t.Errorf("the mark is 3 bytes in UTF-8, got %d", lead)
	}
}
