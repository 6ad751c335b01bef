package test

import (
	"strings"
	"testing"
)

// A count of one reads in the singular: no "1 replacements", no "none of
// the 1 paths".
func TestMessagesCountOneInTheSingular(t *testing.T) {
	root := workspace(t, map[string]string{"a.go": "foo()\n"})
	s := start(t, root, "--mode", "trusted")
	for _, c := range []struct {
		tool string
		args map[string]any
		code string
		want string
	}{
		{"replace_in_files", map[string]any{"oldString": "foo", "newString": "bar", "fileGlob": "*.go", "dryRun": false, "expectedCount": 2}, "CONFLICT", "there is 1 replacement to make now, not the 2 expected"},
		{"replace_in_files", map[string]any{"oldString": "nothing-like-this", "newString": "x", "fileGlob": "*.go"}, "NO_MATCH", `oldString does not occur in the one file matching "*.go"`},
		{"read_files", map[string]any{"paths": []string{"missing.go"}}, "NOT_FOUND", "the path could not be read: missing.go: NOT_FOUND"},
	} {
		msg := s.fail(c.tool, c.args, c.code)
		if !strings.Contains(msg, c.want) {
			t.Errorf("%s: message lacks %q:\n%s", c.tool, c.want, msg)
		}
	}
}
