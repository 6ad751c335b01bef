//go:build unix

package test

import (
	"strings"
	"testing"
)

// The semantic tools name a file as juju's other tools do: a location
// (path:line:column), a note and an error give a name holding a bidi
// override quoted and escaped.
func TestSemanticTextsEscapeFileNames(t *testing.T) {
	root := workspace(t, map[string]string{
		"go.mod":     "module example.com/m\n\ngo 1.22\n",
		"a\u202e.go": "package m\n\n// F is f.\nfunc F() int { return 1 }\n",
	})
	s := startGopls(t, root)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"get_diagnostics", map[string]any{"path": "a\u202e.go"}, ` in "a\u202e.go"`},
		{"go_to_definition", map[string]any{"path": "a\u202e.go", "line": 3, "column": 1}, `"a\u202e.go":3:1`},
		{"go_to_definition", map[string]any{"path": "a\u202e.go", "line": 99, "column": 1}, `past the end of "a\u202e.go"`},
	} {
		got := text(s.call(c.tool, c.args))
		if !strings.Contains(got, c.want) || strings.ContainsRune(got, '\u202e') {
			t.Errorf("%s %v: want %q in\n%q", c.tool, c.args, c.want, got)
		}
	}
}
