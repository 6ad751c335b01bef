package test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// A failed edit names the closest text by similarity — not only when
// white space or case differ — with its line number and what differs, for
// one line and several alike, and answers quickly on a large file.
func TestEditNoMatchNamesTheClosestText(t *testing.T) {
	var big strings.Builder
	for i := range 50_000 {
		fmt.Fprintf(&big, "\tv%d := compute(x, %d, \"w%d\")\n", i, i*7, i%13)
	}
	root := workspace(t, map[string]string{
		"answer.js": "function main() {\n  const answer = computeValue(42);\n  console.log(answer);\n}\n",
		"big.go":    big.String(),
	})
	s := start(t, root, "--mode", "trusted")

	for _, c := range []struct {
		name, path, old string
		want            []string
	}{
		{"one line", "answer.js", "  const answer = computeValue(41);",
			[]string{"line 2", `"  const answer = computeValue(42);"`, `the file has "42" where oldString has "41"`}},
		{"several lines", "answer.js", "function main() {\n  const answer = computeValue(41);\n  console.log(answer);\n}",
			[]string{"lines 1-4", "1 of 4 lines differ", "at line 2", `the file has "42" where oldString has "41"`}},
		{"a line the file lacks", "answer.js", "function main() {\n  const answer = computeValue(42);\n  debug(answer);\n  console.log(answer);\n}",
			[]string{"lines 1-4", `oldString's line 3, "  debug(answer);", is not in the file`}},
		{"50,000 lines", "big.go", "\tv41999 := compute(x, 293993, \"w7\")",
			[]string{"line 42000", `the file has "w9" where oldString has "w7"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := s.with(t)
			began := time.Now()
			msg := s.fail("edit_file", map[string]any{"path": c.path, "oldString": c.old, "newString": "x"}, "NO_MATCH")
			took := time.Since(began)
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("the message lacks %q:\n%s", w, msg)
				}
			}
			if strings.Contains(msg, "no line of the file resembles") {
				t.Errorf("a close line exists: %s", msg)
			}
			if took > 2*time.Second {
				t.Errorf("NO_MATCH took %v", took)
			}
		})
	}
}

// An oldString that is in the file once the empty lines it starts or ends
// with are left out says so and what to drop from which end, where it
// compared the extra empty line with the file's next line and named that
// line's text as what oldString lacks. Dropping what it names matches.
func TestEditNoMatchNamesExtraEmptyLines(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "one\ntwo\nthree\n"})
	s := start(t, root, "--mode", "trusted")
	for _, c := range []struct {
		old  string
		want []string
	}{
		{"two\n\n", []string{"at line 2, without the empty lines", `oldString ends with "\n", which the file does not have after line 2, "two"`, `line 3, "three"`, "drop it from the end of oldString"}},
		{"\n\ntwo\nthree\n", []string{`oldString starts with "\n", which the file does not have before line 2, "two"`, "drop it from the start of oldString"}},
	} {
		msg := s.fail("edit_file", map[string]any{"path": "a.txt", "oldString": c.old, "newString": "x"}, "NO_MATCH")
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("oldString %q: no %q in:\n%s", c.old, w, msg)
			}
		}
		if strings.Contains(msg, `the file has "three", which oldString does not`) {
			t.Errorf("oldString %q: names the next line as the difference:\n%s", c.old, msg)
		}
	}
	s.ok("edit_file", map[string]any{"path": "a.txt", "oldString": "two\n", "newString": "2\n"})
	if got := disk(t, root, "a.txt"); got != "one\n2\nthree\n" {
		t.Fatalf("after dropping the empty line: %q", got)
	}
}
