package text

import (
	"strings"
	"testing"
)

// blankEnds names the empty lines oldString has at an end that the file
// does not, and stays out of the way when the text itself differs or only
// the line end after the last line does (lineEndOnly names that).
func TestNoMatchNamesExtraEmptyLines(t *testing.T) {
	for _, c := range []struct{ text, old, want string }{
		{"one\ntwo\nthree\n", "two\n\n", `oldString ends with "\n", which the file does not have after line 2, "two" (the file goes on with line 3, "three")`},
		{"one\ntwo", "two\n\n", `oldString ends with "\n\n", which the file does not have after line 2, "two" (the file ends there)`},
		{"two\nthree\n", "\n\ntwo\n", `oldString starts with "\n\n", which the file does not have before line 1, "two" (the file starts there)`},
		{"one\ntwo\nthree\n", "\n\ntwo\n", `oldString starts with "\n", which the file does not have before line 2, "two" (the file has line 1, "one", before it)`},
		{"one\ntwofoo\n", "two\n\n", `at line 2, "twofoo": the file has "twofoo" where oldString has "two"`},
		{"one\ntwo", "two\n", "they differ only in the line end after the last line"},
	} {
		if msg := noMatch("a.txt", c.text, c.old).Message; !strings.Contains(msg, c.want) {
			t.Errorf("%q in %q: no %q in:\n%s", c.old, c.text, c.want, msg)
		}
	}
}
