package test

import (
	"strings"
	"testing"
)

// A failed edit whose oldString is in the file but for characters that
// look alike (curly against straight quotes, a no-break or zero-width
// space), HTML entities, escapes sent twice, or that meets an empty file
// says so, where, and which characters: it said "the spacing inside the
// line differs" of a no-break space, that no line resembled an oldString
// of entities, and named a line of the file as missing from an escaped
// oldString.
func TestEditNoMatchNamesLookalikeCharacters(t *testing.T) {
	root := workspace(t, map[string]string{
		"q.go":      "func main() {\n\tfmt.Println(\"it's done\")\n}\n",
		"cq.md":     "# Notes\nHe said “hello” and it’s fine.\n",
		"sp.txt":    "price:\u00a0100 EUR\nzero\u200bwidth\n",
		"html.go":   "func f() {\n\tif a < b && c > \"d\" {\n\t}\n}\n",
		"lines.txt": "first\nline1\nline2\n",
		"empty.txt": "",
	})
	s := start(t, root, "--mode", "trusted")
	for _, c := range []struct {
		name, path, old string
		want            []string
	}{
		{"curly quotes for straight", "q.go", "fmt.Println(“it’s done”)",
			[]string{"at line 2", "look alike", `the file has a straight double quote ('"') where oldString has a left double curly quote ('“', U+201C)`, "curly apostrophe"}},
		{"straight quotes for curly", "cq.md", "said \"hello\" and it's fine",
			[]string{"at line 2", `the file has a left double curly quote ('“', U+201C) where oldString has a straight double quote ('"')`, "right single curly quote"}},
		{"a space for a no-break space", "sp.txt", "price: 100 EUR",
			[]string{"at line 1", `the file has a no-break space ('\u00a0', U+00A0) where oldString has a space (' ')`}},
		{"no zero-width space", "sp.txt", "zerowidth",
			[]string{"at line 2", `the file has a zero-width space ('\u200b', U+200B), which oldString does not`}},
		{"HTML entities", "html.go", "\tif a &lt; b &amp;&amp; c &gt; &quot;d&quot; {",
			[]string{"at line 2", "HTML entities", `&lt; for "<"`, `&amp; for "&"`}},
		{"escaped twice", "lines.txt", `line1\nline2`,
			[]string{"at line 2", "backslash escapes", "line break"}},
		{"an empty file", "empty.txt", "anything",
			[]string{"which is empty", "pass an empty oldString"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := s.with(t)
			msg := s.fail("edit_file", map[string]any{"path": c.path, "oldString": c.old, "newString": "x"}, "NO_MATCH")
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("no %q in:\n%s", w, msg)
				}
			}
		})
	}
}

// A hunk whose context differs from the file only in white space or in
// characters that look alike is a CONFLICT naming the difference (tabs
// against spaces, trailing blanks, which quote, accents composed or not)
// and, where only white space differs, saying that hunks apply exactly,
// as git apply does without --ignore-whitespace; it printed the two
// lines, which look the same.
func TestApplyPatchConflictNamesWhiteSpaceAndLookalikes(t *testing.T) {
	root := workspace(t, map[string]string{
		"tab.go":    "func f() {\n\treturn 1\n}\n",
		"trail.txt": "alpha   \nbeta\n",
		"cq.md":     "He said “hello”.\n",
		"nfd.txt":   "un cafe\u0301\n",
	})
	s := start(t, root, "--mode", "trusted")
	for _, c := range []struct {
		name, patch string
		want        []string
	}{
		{"spaces for a tab", "--- a/tab.go\n+++ b/tab.go\n@@ -1,3 +1,4 @@\n func f() {\n+\tx()\n     return 1\n }\n",
			[]string{"line 2 of the file", "the file indents with 1 tab, the hunk with 4 spaces", "without --ignore-whitespace"}},
		{"trailing blanks", "--- a/trail.txt\n+++ b/trail.txt\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+gamma\n",
			[]string{"line 1 of the file", "trailing blanks differ", "without --ignore-whitespace"}},
		{"straight quotes for curly", "--- a/cq.md\n+++ b/cq.md\n@@ -1 +1 @@\n-He said \"hello\".\n+Bye.\n",
			[]string{`the file has a left double curly quote ('“', U+201C) where the hunk has a straight double quote ('"')`}},
		{"composed for decomposed", "--- a/nfd.txt\n+++ b/nfd.txt\n@@ -1 +1 @@\n-un caf\u00e9\n+deux\n",
			[]string{"line 1 of the file", "NFD against NFC"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := s.with(t)
			msg := s.fail("apply_patch", map[string]any{"patch": c.patch}, "CONFLICT")
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("no %q in:\n%s", w, msg)
				}
			}
		})
	}
}

// A replace_in_files that finds oldString in no file names the file and
// line where it nearly is (white space and lookalike characters compared
// loosely) and writes nothing; it said only "check the text".
func TestReplaceInFilesNamesWhereItNearlyIs(t *testing.T) {
	root := workspace(t, map[string]string{
		"a/one.go": "package a\n",
		"a/two.go": "package a\n\nfunc f() {\n\treturn 1\n}\n",
		"b/q.md":   "# Notes\n\nHe said “hello” and it’s fine.\n",
	})
	s := start(t, root, "--mode", "trusted")
	for _, c := range []struct {
		name, old, glob string
		want            []string
	}{
		{"spaces for a tab", "func f() {\n    return 1\n}", "a/*.go", []string{`It nearly occurs in "a/two.go" at line 3`, "tabs against spaces"}},
		{"straight quotes for curly", "said \"hello\" and it's fine", "b/*.md", []string{`It nearly occurs in "b/q.md" at line 3`, "curly against straight quotes"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := s.with(t)
			msg := s.fail("replace_in_files", map[string]any{"oldString": c.old, "newString": "x", "fileGlob": c.glob, "dryRun": false}, "NO_MATCH")
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("no %q in:\n%s", w, msg)
				}
			}
		})
	}
	msg := s.fail("replace_in_files", map[string]any{"oldString": "return 2", "newString": "x", "fileGlob": "a/*.go"}, "NO_MATCH")
	if strings.Contains(msg, "nearly") {
		t.Errorf("names a near place for text that is not there: %s", msg)
	}
}
