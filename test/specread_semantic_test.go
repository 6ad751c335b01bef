package test

import (
	"strings"
	"testing"
)

// TestSpecReadHeuristicLinePastTheEnd: with no language server, a line
// past a file's end is refused as a language server's is, saying how many
// lines the file has; the heuristic index said "no identifier at a.go:99:1
// (the line reads \"\")", as if the line were there and empty.
func TestSpecReadHeuristicLinePastTheEnd(t *testing.T) {
	root := workspace(t, map[string]string{
		"a.go": "package p\n\nfunc F() int { return 1 }\n\nfunc G() int { return F() }\n",
	})
	s := start(t, root)
	for _, tool := range []string{"go_to_definition", "find_references"} {
		msg := s.fail(tool, map[string]any{"path": "a.go", "line": 99, "column": 1}, "INVALID_ARGUMENT")
		if !strings.Contains(msg, "line 99 is past the end of a.go (5 lines)") {
			t.Fatalf("%s: %s", tool, msg)
		}
		// The last line still answers.
		res := s.call(tool, map[string]any{"path": "a.go", "line": 5, "column": 23})
		if res.IsError || !strings.Contains(text(res), "a.go:3:6") {
			t.Fatalf("%s on the last line: %s", tool, text(res))
		}
	}
}
