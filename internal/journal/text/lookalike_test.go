package text

import (
	"strings"
	"testing"
)

// A NO_MATCH whose oldString differs from the file only in characters
// that look alike, in HTML entities, in escapes, or that meets an empty
// file, says so and where.
func TestNoMatchNamesWhatLooksAlike(t *testing.T) {
	for _, c := range []struct {
		name, file, old string
		want            []string
	}{
		{"curly quotes for straight", "a\n\tfmt.Println(\"it's done\")\n", "fmt.Println(“it's done”)",
			[]string{"at line 2", `a straight double quote ('"') where oldString has a left double curly quote ('“', U+201C)`, `a right double curly quote ('”', U+201D)`}},
		{"curly apostrophe for straight", "x\nit's done\n", "it’s done",
			[]string{"at line 2", `a straight apostrophe ('\'') where oldString has a right single curly quote (curly apostrophe) ('’', U+2019)`}},
		{"straight for curly", "He said “hello” and it’s fine.\n", "said \"hello\" and it's",
			[]string{"at line 1", `the file has a left double curly quote ('“', U+201C) where oldString has a straight double quote`, `right single curly quote`}},
		{"no-break space", "one\nprice:\u00a0100 EUR\n", "price: 100",
			[]string{"at line 2", `the file has a no-break space ('\u00a0', U+00A0) where oldString has a space (' ')`}},
		{"zero-width space", "zero\u200bwidth\n", "zerowidth",
			[]string{"at line 1", `the file has a zero-width space ('\u200b', U+200B), which oldString does not`}},
		{"en dash", "a – b\n", "a - b", []string{"an en dash"}},
		{"html entities", "x\nif a < b && c > \"d\" {\n", "if a &lt; b &amp;&amp; c &gt; &quot;d&quot; {",
			[]string{"at line 2", "HTML entities", `&lt; for "<"`, `&amp; for "&"`, `&quot; for "\""`}},
		{"escaped twice", "x\nline1\n\tline2\n", `line1\n\tline2`,
			[]string{"at line 2", "backslash escapes", "escaped twice"}},
		{"empty file", "", "anything", []string{"which is empty", "empty oldString"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, e := Edit("f", []byte(c.file), c.old, "x", false)
			if e == nil {
				t.Fatal("the edit applied")
			}
			for _, w := range c.want {
				if !strings.Contains(e.Message, w) {
					t.Errorf("no %q in:\n%s", w, e.Message)
				}
			}
		})
	}
}

// In a multi-line oldString, and in a hunk's line, a line that differs
// from the file's only in lookalike characters is named by them.
func TestLineDiffNamesLookalikes(t *testing.T) {
	for _, c := range []struct{ f, o, want string }{
		{"price:\u00a0100", "price: 100", "the file has a no-break space"},
		{"it’s “x”", "it's \"x\"", "right single curly quote"},
		{"a\u200bb", "ab", "zero-width space"},
		{"it's", "its", ""},
	} {
		got := lineDiff(c.f, c.o)
		if c.want == "" {
			if strings.Contains(got, "U+") {
				t.Errorf("lineDiff(%q, %q) = %q names a lookalike", c.f, c.o, got)
			}
			continue
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("lineDiff(%q, %q) = %q, want %q in it", c.f, c.o, got, c.want)
		}
	}
}

// Folding never lets lookalikeMatch report text that is not there.
func FuzzLookalikeMatch(f *testing.F) {
	f.Add("He said “hello”\n", "said \"hello\"")
	f.Add("zero\u200bwidth\n", "zerowidth")
	f.Add("a\u00a0b\u200b", "a b")
	f.Add("\xff’x", "'x")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, text, old string) {
		line, why, ok := lookalikeMatch(text, old)
		if !ok {
			return
		}
		if why == "" || line < 1 || line > strings.Count(text, "\n")+1 {
			t.Fatalf("line %d, why %q", line, why)
		}
		if !strings.Contains(fold(text), fold(old)) {
			t.Fatal("matched what folding does not find")
		}
	})
}
