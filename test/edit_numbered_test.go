package test

import (
	"strings"
	"testing"
)

// An oldString copied from read_file's numbered view, with the number and
// tab before each line (or Claude Code's arrow), fails with a NO_MATCH that
// says the text is there without them and that they are not part of the
// file, where it named "4\treturn" as the file's text oldString differs
// in, and the model retried with the numbers kept.
func TestEditNumberedViewPastedIntoOldString(t *testing.T) {
	root := workspace(t, map[string]string{
		"t.go": "package x\n\nfunc f() int {\n\treturn 1\n}\n",
	})
	s := start(t, root, "--mode", "trusted")
	view := s.ok("read_file", map[string]any{"path": "t.go", "numbered": true})
	lines := strings.Split(view, "\n")
	if !strings.HasPrefix(lines[3], "     4\t") {
		t.Fatalf("the numbered view is not as this test expects:\n%s", view)
	}
	for _, c := range []struct {
		name, old string
		line      string
	}{
		{"one line as shown", lines[3], "line 4"},
		{"one line, the spaces left out", "4\treturn 1", "line 4"},
		{"three lines as shown", strings.Join(lines[2:5], "\n"), "line 3"},
		{"Claude Code's arrow", "     3→func f() int {\n     4→\treturn 1", "line 3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := s.with(t)
			msg := s.fail("edit_file", map[string]any{"path": "t.go", "oldString": c.old, "newString": c.old + " // x"}, "NO_MATCH")
			for _, w := range []string{"it is there, at " + c.line, "without the line numbers", "not part of the file", "Drop them from oldString and newString"} {
				if !strings.Contains(msg, w) {
					t.Errorf("the message lacks %q:\n%s", w, msg)
				}
			}
		})
	}
	// Numbered lines whose text is not in the file: the numbers are named
	// beside the closest text.
	msg := s.fail("edit_file", map[string]any{"path": "t.go", "oldString": "     3\tfunc f() int {\n     4\t\treturn 2", "newString": "x"}, "NO_MATCH")
	if !strings.Contains(msg, "begin with consecutive numbers and a tab") || !strings.Contains(msg, "drop them from oldString and newString") {
		t.Errorf("the message does not name the line numbers:\n%s", msg)
	}
	// Text that merely starts with a number and a tab, and is in the file,
	// is edited as it is.
	root2 := workspace(t, map[string]string{"data.tsv": "1\talpha\n2\tbeta\n"})
	s2 := start(t, root2, "--mode", "trusted")
	s2.ok("edit_file", map[string]any{"path": "data.tsv", "oldString": "2\tbeta", "newString": "2\tgamma"})
}
