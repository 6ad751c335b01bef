//go:build unix

package test

import "testing"

// Without a language server, the heuristic index knows identifiers spelt
// in any script, as Go and Python do: a position on 名前 names it, and
// func getÜber is a definition of getÜber, not of get.
func TestLSPHeuristicNamesInAnyScript(t *testing.T) {
	root := workspace(t, map[string]string{
		"a.go": "package a\n\ntype 名前 struct{}\n\nfunc getÜber() 名前 { return 名前{} }\n\nfunc get() {}\n",
	})
	s := start(t, root, "--mode", "trusted")

	sameList(t, "definition of 名前", locs(t, s.call("go_to_definition", map[string]any{"path": "a.go", "line": 5, "column": 16})), []string{"a.go:3:6"})
	sameList(t, "definition of getÜber", locs(t, s.call("go_to_definition", map[string]any{"path": "a.go", "line": 5, "column": 8})), []string{"a.go:5:6"})
	var out struct {
		Symbols []struct{ Name, Path string }
	}
	decode(t, s.call("find_symbol", map[string]any{"symbol": "get"}), &out)
	if len(out.Symbols) != 1 || out.Symbols[0].Name != "get" {
		t.Fatalf("find_symbol get: want the one func get, got %+v", out.Symbols)
	}
}

// A byte-order mark opening a file, which read_file does not show, is no
// column of the heuristic index either: a definition on line 1 is found,
// at the column read_file gives it.
func TestLSPHeuristicByteOrderMarkIsNoColumn(t *testing.T) {
	root := workspace(t, map[string]string{
		"b.py": "\ufeffdef foo():\n    return 1\n\n\nfoo()\n",
	})
	s := start(t, root, "--mode", "trusted")

	sameList(t, "definition of foo", locs(t, s.call("go_to_definition", map[string]any{"path": "b.py", "line": 5, "column": 1})), []string{"b.py:1:5"})
	var out struct{ Symbol string }
	decode(t, s.call("find_references", map[string]any{"path": "b.py", "line": 1, "column": 5}), &out)
	if out.Symbol != "foo" {
		t.Fatalf("column 5 of line 1, as read_file shows it, is foo's; the references asked were of %q", out.Symbol)
	}
}
