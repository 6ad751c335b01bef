//go:build unix

package test

import (
	"strings"
	"testing"
)

// A file a command creates (go generate, git checkout, a shell's
// redirection) goes through no journal; the server is told of it all the
// same before the next query, so gopls loads it and what it declares is
// not called undefined, and the file is a definition's answer.
func TestLSPFileCreatedByCommandIsSeen(t *testing.T) {
	root := workspace(t, makeUse(nil))
	s := startGopls(t, root)

	sameList(t, "definition", locs(t, s.call("go_to_definition", map[string]any{"path": "b.go", "line": 6, "column": 11})), []string{"a/a.go:3:6"})
	s.ok("run_command", map[string]any{"command": `printf 'package a\n\nfunc Gen() int { return 7 }\n' > a/gen.go && sed -i 's/return a.Make()$/return a.Make() + a.Gen()/' b.go`})
	var d diagList
	decode(t, s.call("get_diagnostics", map[string]any{"path": "b.go"}), &d)
	for _, x := range d.Diagnostics {
		if strings.Contains(x.Message, "Gen") {
			t.Fatalf("the file the command created is unknown to gopls: %+v", d)
		}
	}
	sameList(t, "definition in the created file", locs(t, s.call("go_to_definition", map[string]any{"path": "b.go", "line": 6, "column": 22})), []string{"a/gen.go:3:6"})
}

// A file a command deletes (git checkout, rm, a generator cleaning up)
// goes through no journal either, and juju never had it open: the server
// is told it is gone before the next query, so gopls no longer knows what
// it declared and the file that used it is reported for it.
func TestLSPFileDeletedByCommandIsSeen(t *testing.T) {
	root := workspace(t, map[string]string{
		"go.mod":      "module example.com/p\n\ngo 1.22\n",
		"a/a.go":      "package a\n",
		"a/helper.go": "package a\n\nfunc Helper() int { return 1 }\n",
		"b/b.go":      "package b\n\nimport \"example.com/p/a\"\n\nfunc Use() int {\n\treturn a.Helper()\n}\n",
	})
	s := startGopls(t, root)

	sameList(t, "definition", locs(t, s.call("go_to_definition", map[string]any{"path": "b/b.go", "line": 6, "column": 11})), []string{"a/helper.go:3:6"})
	var d diagList
	decode(t, s.call("get_diagnostics", map[string]any{"path": "b/b.go"}), &d)
	if len(d.Diagnostics) != 0 {
		t.Fatalf("diagnostics before the command: %+v", d)
	}
	s.ok("run_command", map[string]any{"command": "rm a/helper.go"})
	d = diagList{}
	decode(t, s.call("get_diagnostics", map[string]any{"path": "b/b.go"}), &d)
	if !d.has("error", "b/b.go", 6, 11, "Helper") {
		t.Fatalf("the file the command deleted is still known to gopls: %+v", d)
	}
}
