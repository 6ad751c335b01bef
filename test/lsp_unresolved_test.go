//go:build unix

package test

import (
	"strings"
	"testing"
)

// A name pyright cannot follow because its import is unresolved (a
// package not installed in the environment pyright sees) has no
// definition; the note says why may be the import and points at
// get_diagnostics, instead of only asking whether the column is right.
func TestLSPDefinitionUnresolvedImportNote(t *testing.T) {
	root := workspace(t, map[string]string{
		"pyproject.toml": "[project]\nname = \"p\"\n",
		"main.py":        "import nosuchmod\n\nnosuchmod.run()\n",
	})
	s := startHome(t, lspHome(t, pyrightServer(t)), root, "--mode", "trusted")
	var out struct {
		Locations []any
		Note      string
	}
	decode(t, s.call("go_to_definition", map[string]any{"path": "main.py", "line": 3, "column": 11}), &out)
	if len(out.Locations) != 0 {
		t.Fatalf("a definition for a name of an unresolved import: %+v", out)
	}
	if !strings.Contains(out.Note, "get_diagnostics") || !strings.Contains(out.Note, "nosuchmod") {
		t.Fatalf("the note does not point at the unresolved import: %q", out.Note)
	}
}
