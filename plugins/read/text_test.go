package read

import (
	"strings"
	"testing"

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
