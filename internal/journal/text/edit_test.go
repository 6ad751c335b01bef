package text

import (
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

func TestEditText(t *testing.T) {
	for _, c := range []struct {
		name, content, old, new string
		all                     bool
		want                    string
		code                    abi.Code
		msg                     []string // substrings of the error message
	}{
		{name: "once", content: "a\nb\nc\n", old: "b", new: "B", want: "a\nB\nc\n"},
		{name: "delete", content: "a\nb\nc\n", old: "b\n", new: "", want: "a\nc\n"},
		{name: "crlf kept", content: "a\r\nb\r\nc\r\n", old: "a\nb", new: "x\ny\nz", want: "x\r\ny\r\nz\r\nc\r\n"},
		{name: "crlf in oldString", content: "a\r\nb\r\n", old: "a\r\nb", new: "c", want: "c\r\n"},
		{name: "bom kept", content: bom + "a\nb\n", old: "a", new: "A", want: bom + "A\nb\n"},
		{name: "mixed endings matched raw", content: "a\r\nb\nc\n", old: "b\nc", new: "B", want: "a\r\nB\n"},
		{name: "all", content: "x x x", old: "x", new: "y", all: true, want: "y y y"},
		{name: "ambiguous", content: "x\ny\nx\nx\n", old: "x", new: "z", code: abi.AmbiguousEdit, msg: []string{"3 times", "1, 3, 4", "replaceAll"}},
		{name: "empty old", content: "a", old: "", new: "b", code: abi.InvalidArgument},
		{name: "same", content: "a", old: "a", new: "a", code: abi.InvalidArgument},
		{name: "line ends only, CRLF file", content: "a\r\nb\r\n", old: "a\r\nb", new: "a\nb", code: abi.InvalidArgument, msg: []string{"differ only in their line ends", "(CRLF)", "dos2unix"}},
		{name: "line ends only, LF file", content: "a\nb\n", old: "a\nb", new: "a\r\nb", code: abi.InvalidArgument, msg: []string{"differ only in their line ends", "(LF)", "unix2dos"}},
		{name: "tabs vs spaces", content: "f() {\n\treturn 1\n}\n", old: "    return 1", new: "x", code: abi.NoMatch, msg: []string{"line 2", "1 tab", "4 spaces"}},
		{name: "trailing blanks", content: "a  \nb\n", old: "a\nb", new: "x", code: abi.NoMatch, msg: []string{"line 1", "trailing blanks"}},
		{name: "case", content: "Hello World\n", old: "hello world", new: "x", code: abi.NoMatch, msg: []string{"letter case"}},
		{name: "inner spacing", content: "a  =  b\n", old: "a = b", new: "x", code: abi.NoMatch, msg: []string{"spacing"}},
		{name: "text differs", content: "one\ntwo\nthree\n", old: "one\nTOO\nthree", new: "x", code: abi.NoMatch, msg: []string{"lines 1-3", "line 2", "TOO"}},
		{name: "nothing alike", content: "abc\n", old: "zzz", new: "x", code: abi.NoMatch, msg: []string{"no line"}},
		{name: "similar line", content: "function f() {\n  const answer = computeValue(42);\n}\n", old: "  const answer = computeValue(41);", new: "x",
			code: abi.NoMatch, msg: []string{"line 2", `"  const answer = computeValue(42);"`, `the file has "42" where oldString has "41"`}},
		{name: "similar lines", content: "func f() {\n\tx := load(1)\n\treturn x\n}\n", old: "func f() {\n\tx := loadAll(1)\n\treturn x\n}", new: "x",
			code: abi.NoMatch, msg: []string{"lines 1-4", "1 of 4 lines differ", "at line 2", `the file has "load" where oldString has "loadAll"`}},
		{name: "a line too many in oldString", content: "a := 1\nb := 2\nc := 3\n", old: "a := 1\nextra()\nb := 2\nc := 3", new: "x",
			code: abi.NoMatch, msg: []string{"lines 1-3", `oldString's line 2, "extra()", is not in the file (it would come before line 2)`}},
		{name: "a line missing from oldString", content: "a := 1\nextra()\nb := 2\nc := 3\n", old: "a := 1\nb := 2\nc := 3", new: "x",
			code: abi.NoMatch, msg: []string{"lines 1-4", `the file has line 2, "extra()", which oldString does not have`}},
		{name: "other candidates", content: "x := f(1)\ny\nx := f(1)\n", old: "x := f(2)", new: "z",
			code: abi.NoMatch, msg: []string{"line 1", "Nearly as close", "line 3"}},
		{name: "characters kept whole", content: "héllo wörld\n", old: "hèllo wörld", new: "x",
			code: abi.NoMatch, msg: []string{`the file has "héllo" where oldString has "hèllo"`}},
		{name: "bytes not UTF-8", content: "caf\xe9 cr\xe8me\n", old: "caf\ufffd cr\ufffdme", new: "x",
			code: abi.NoMatch, msg: []string{"at line 1, as read_file shows it", "not UTF-8", "U+FFFD"}},
		{name: "bytes not UTF-8 in a block", content: "a\ncaf\xe9\nb\n", old: "a\ncaf\ufffd\nb", new: "x",
			code: abi.NoMatch, msg: []string{"at line 1, as read_file shows it", "not UTF-8"}},
		{name: "a BOM in oldString", content: bom + "hello\nworld\n", old: "\ufeffhello\nworld", new: "x",
			code: abi.NoMatch, msg: []string{"byte-order mark", "leave it out"}},
		{name: "words added", content: "if ok {\n", old: "if ok && ready {", new: "x",
			code: abi.NoMatch, msg: []string{`oldString has "&& ready"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, _, e := Edit("f.txt", []byte(c.content), c.old, c.new, c.all)
			if c.code != "" {
				msg := wantCode(t, e, c.code)
				for _, m := range c.msg {
					if !strings.Contains(msg, m) {
						t.Errorf("message lacks %q: %s", m, msg)
					}
				}
				return
			}
			if e != nil {
				t.Fatal(e)
			}
			if string(out) != c.want {
				t.Fatalf("got %q, want %q", out, c.want)
			}
		})
	}
}

// FuzzEditText checks that an edit never panics, that a success holds
// newString where oldString was and keeps the file's BOM and CRLF line
// ends, and that a failure carries a code.
func FuzzEditText(f *testing.F) {
	f.Add("a\nb\nc\n", "b", "B", false)
	f.Add("a\r\nb\r\n", "a\nb", "x\ny", false)
	f.Add(bom+"x x", "x", "y", true)
	f.Add("\tfoo\n", "  foo", "bar", false)
	f.Add("", "a", "b", false)
	f.Add("f() {\n  x := g(42)\n}\n", "  x := g(41)", "y", false)
	f.Add("a\nb\nc\nd\n", "a\nX\nb\nc\nd", "y", false)
	f.Add("a\nextra\nb\nc\n", "a\nb\nc\n", "y", false)
	f.Add("He said “hi” and it’s\n", "said \"hi\" and it's", "y", false)
	f.Add("a\u00a0b\u200bc\n", "a bc", "y", false)
	f.Add("if a < b && c {\n", "a &lt; b &amp;&amp; c", "y", false)
	f.Add("x\n\ty\n", `x\n\ty`, "y", false)
	f.Fuzz(func(t *testing.T, content, old, new string, all bool) {
		out, n, e := Edit("f", []byte(content), old, new, all)
		if e != nil {
			if !e.Code.Valid() || e.Message == "" {
				t.Fatalf("bad error %+v", e)
			}
			return
		}
		if n < 1 {
			t.Fatalf("success with %d replacements", n)
		}
		_, st := SplitStyle([]byte(content))
		if st.BOM && !strings.HasPrefix(string(out), bom) {
			t.Fatal("BOM lost")
		}
		if st.CRLF && strings.Count(string(out), "\n") != strings.Count(string(out), "\r\n") {
			t.Fatalf("CRLF file got a bare LF: %q", out)
		}
	})
}

func wantCode(t testing.TB, e *abi.Error, code abi.Code) string {
	t.Helper()
	if e == nil {
		t.Fatalf("succeeded, want %s", code)
	}
	if e.Code != code {
		t.Fatalf("code %s, want %s: %s", e.Code, code, e.Message)
	}
	return e.Message
}

// A NO_MATCH whose oldString is in the file once both are composed (the
// file decomposes its accents, NFD, the model composes them, NFC) says
// so and where: it said no line of the file resembled oldString.
func TestNoMatchNamesUnicodeNormalization(t *testing.T) {
	file := "title: cafe\u0301 du monde\nnaive: nai\u0308ve\n"
	for _, old := range []string{"café", "naïve"} {
		_, _, e := Edit("f.txt", []byte(file), old, "x", false)
		msg := wantCode(t, e, abi.NoMatch)
		if !strings.Contains(msg, "NFD against NFC") || !strings.Contains(msg, "at line") {
			t.Errorf("%q: %s", old, msg)
		}
	}
	_, _, e := Edit("f.txt", []byte(file), "naïve", "x", false)
	if !strings.Contains(wantCode(t, e, abi.NoMatch), "at line 2") {
		t.Error("the line is not named")
	}
	// Without any difference of form, the closest lines are named as ever.
	_, _, e = Edit("f.txt", []byte("title: café du monde\n"), "title: cafe du monde", "x", false)
	if msg := wantCode(t, e, abi.NoMatch); strings.Contains(msg, "NFC") {
		t.Errorf("no normalization difference: %s", msg)
	}
}

// A newString with CRLF line ends put in a file without any takes the
// file's "\n": it mixed CRLF into an LF file, and only an oldString's CRLF
// was made "\n".
func TestEditNewStringTakesTheFilesLineEnds(t *testing.T) {
	out, _, e := Edit("f.txt", []byte("a\nb\n"), "a", "x\r\ny", false)
	if e != nil || string(out) != "x\ny\nb\n" {
		t.Errorf("LF file: %q %v", out, e)
	}
	out, _, e = Edit("f.txt", []byte("a\r\nb\r\n"), "a", "x\ny", false)
	if e != nil || string(out) != "x\r\ny\r\nb\r\n" {
		t.Errorf("CRLF file: %q %v", out, e)
	}
	out, _, e = Edit("f.txt", []byte("a\r\nb\n"), "a", "x\r\ny", false) // mixed: left as given
	if e != nil || string(out) != "x\r\ny\r\nb\n" {
		t.Errorf("mixed file: %q %v", out, e)
	}
}
