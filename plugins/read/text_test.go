package read

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jujutools/juju/sdk/abi"
)

func TestTrimRune(t *testing.T) {
	for in, want := range map[string]string{
		"":              "",
		"abc":           "abc",
		"abé":           "abé",
		"ab\xc3":        "ab",
		"ab€"[:4]:       "ab",
		"ab€"[:3]:       "ab",
		"ab€":           "ab€",
		"😀"[:3]:         "",
		"x😀":            "x😀",
		"\xff\xfe":      "\xff\xfe", // not a cut character: left for the host's U+FFFD
		"é\x80\x80\x80": "é\x80\x80\x80",
	} {
		if got := trimRune(in); got != want {
			t.Errorf("trimRune(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFitNumbered(t *testing.T) {
	// 100 one-byte lines: 200 bytes of text, 900 numbered.
	content := strings.Repeat("x\n", 100)
	ft := &FileText{content: content, LineCount: 100, byteCap: 90}
	fitNumbered(ft)
	if ft.LineCount != 10 || ft.content != strings.Repeat("x\n", 10) {
		t.Fatalf("fit: %d lines, %q", ft.LineCount, ft.content)
	}
	if n := len(render(&FileText{content: ft.content, LineCount: ft.LineCount, FirstLine: 1, TotalLines: 10}, true)); n > 90 {
		t.Fatalf("numbered text %d bytes, cap 90", n)
	}
	// Within the cap: untouched; one line over it only by its number: kept.
	for _, ft := range []*FileText{
		{content: content, LineCount: 100, byteCap: 900},
		{content: strings.Repeat("y", 88) + "\n", LineCount: 1, byteCap: 90},
	} {
		before := ft.content
		fitNumbered(ft)
		if ft.content != before {
			t.Fatalf("changed: %q", ft.content)
		}
	}
}

// TestCompleteLinesDoesNotCopy holds the text of a read to the host's
// answer itself: a copy per file was a fifth of what read_files of ten
// small files allocated inside wasm.
func TestCompleteLinesDoesNotCopy(t *testing.T) {
	body := []byte(strings.Repeat("package x // some code\n", 40))
	res := &abi.ReadResult{LineCount: 40, TotalLines: 40}
	if n := testing.AllocsPerRun(100, func() {
		if s, count, cut := completeLines(body, res); len(s) != len(body) || count != 40 || cut {
			t.Fatalf("completeLines: %d bytes, %d lines, cut %v", len(s), count, cut)
		}
	}); n != 0 {
		t.Fatalf("completeLines made %.0f allocations, want none: the text is the body", n)
	}
}

// checkCutBytes reads all of content by bytes from offset, byteCap at a
// time, as readBytes asks the host, and checks every piece: it starts at
// offset or, inside a character, right after it; it shows at least one
// byte, no more than byteCap unless one character is longer, stops on a
// character, and reading on from its end starts there: the pieces joined
// are content from the first one's start on.
func checkCutBytes(t *testing.T, content string, offset, byteCap int64) {
	t.Helper()
	const slack = utf8.UTFMax - 1
	size, valid := int64(len(content)), utf8.ValidString(content)
	var joined strings.Builder
	first := int64(-1)
	for at := offset; at < size; {
		from := max(0, at-slack)
		start, text := cutBytes([]byte(content[from:min(size, at+byteCap+2*slack)]), from, at, size, byteCap)
		if start < at || start-at > slack || valid && start < size && !utf8.RuneStart(content[start]) {
			t.Fatalf("%q from %d, cap %d: starts at %d", content, at, byteCap, start)
		}
		if len(text) == 0 {
			if start != size {
				t.Fatalf("%q from %d, cap %d: nothing shown at %d, before the end", content, at, byteCap, start)
			}
			break
		}
		if first < 0 {
			first = start
		} else if start != at {
			t.Fatalf("%q: reading on from %d starts at %d", content, at, start)
		}
		if string(text) != content[start:start+int64(len(text))] {
			t.Fatalf("%q from %d: text %q is not the file's bytes at %d", content, at, text, start)
		}
		if int64(len(text)) > byteCap {
			if _, n := utf8.DecodeRuneInString(content[start:]); n != len(text) {
				t.Fatalf("%q from %d, cap %d: %d bytes shown, more than one character", content, at, byteCap, len(text))
			}
		}
		if end := start + int64(len(text)); valid && end < size && !utf8.RuneStart(content[end]) {
			t.Fatalf("%q from %d, cap %d: stops inside a character at %d", content, at, byteCap, end)
		}
		joined.Write(text)
		at = start + int64(len(text))
	}
	if first >= 0 && joined.String() != content[first:] {
		t.Fatalf("%q from %d, cap %d: read on, the pieces make %q, want %q", content, offset, byteCap, joined.String(), content[first:])
	}
}

func TestCutBytesEveryOffset(t *testing.T) {
	for _, content := range []string{
		"abéc€d😀e",
		"😀😀é€x",
		"ab😀",               // ends in a 4-byte character
		"ab\xe2\x82",        // ends in a cut character
		"\x80\x80\x80\x80a", // stray continuation bytes
		"a\xffb€\x80\x80é\xe2\x82z",
	} {
		for offset := int64(1); offset < int64(len(content)); offset++ {
			for _, byteCap := range []int64{1, 2, 3, 4, 5, 7, 90000} {
				checkCutBytes(t, content, offset, byteCap)
			}
		}
	}
}

func FuzzCutBytes(f *testing.F) {
	f.Add("abéc€d😀e", int64(3), int64(2))
	f.Add("ab\xe2\x82", int64(1), int64(1))
	f.Fuzz(func(t *testing.T, content string, offset, byteCap int64) {
		if len(content) < 2 || len(content) > 1000 {
			return
		}
		offset = 1 + abs(offset)%int64(len(content)-1)
		byteCap = 1 + abs(byteCap)%16
		checkCutBytes(t, content, offset, byteCap)
	})
}

func abs(n int64) int64 {
	if n < 0 {
		return -(n + 1)
	}
	return n
}
