//go:build unix

package test

import (
	"strings"
	"testing"
)

// read_file leaves out the byte-order mark opening a file, so the
// semantic tools count line 1's columns after it too: a column read off
// read_file points at the same character, and a location's column and
// text are those read_file shows, while the server, sent the file's
// bytes, counts the mark.
func TestLSPByteOrderMarkIsNoColumn(t *testing.T) {
	root := workspace(t, map[string]string{
		"go.mod": "module example.com/p\n\ngo 1.22\n",
		"b.go":   "\ufeffpackage p; func Foo() int { return 1 }\n\nvar _ = Foo()\n",
	})
	home := lspHome(t)
	lspAddGopls(t, home)
	s := startHome(t, home, root, "--mode", "trusted")

	shown := text(s.call("read_file", map[string]any{"path": "b.go"}))
	if !strings.Contains(shown, "package p; func Foo()") || strings.Contains(shown, "\ufeff") {
		t.Fatalf("read_file shows line 1 without the mark: %q", shown)
	}
	col := strings.Index("package p; func Foo()", "Foo") + 1 // 17, as read_file shows the line

	res := s.call("go_to_definition", map[string]any{"path": "b.go", "line": 3, "column": 10})
	sameList(t, "definition", locs(t, res), []string{at("b.go", 1, col)})
	var out struct {
		Locations []struct{ Text string }
	}
	decode(t, res, &out)
	if len(out.Locations) != 1 || strings.Contains(out.Locations[0].Text, "\ufeff") || strings.Contains(text(res), "\ufeff") {
		t.Fatalf("the location's text is line 1 as read_file shows it: %s", text(res))
	}
	sameList(t, "references from read_file's column", locs(t, s.call("find_references", map[string]any{"path": "b.go", "line": 1, "column": col})),
		[]string{at("b.go", 1, col), "b.go:3:9"})
}
