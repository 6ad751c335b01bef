//go:build unix

package test

import (
	"path/filepath"
	"testing"
)

// Without a language server, a name used in a file of the second root is
// looked up in that root, as a language server started there would: its
// definition and uses are found there, and a namesake in the first root
// is not taken for it.
func TestLSPHeuristicLooksInTheFilesRoot(t *testing.T) {
	first := workspace(t, map[string]string{
		"decoy.py": "def helper():\n    return 0\n",
	})
	second := workspace(t, map[string]string{
		"lib.py":  "def helper():\n    return 1\n",
		"main.py": "from lib import helper\nx = helper()\n",
	})
	s := start(t, first, "--mode", "trusted", "--root", second)
	lib, main := filepath.Join(second, "lib.py"), filepath.Join(second, "main.py")

	sameList(t, "definition of helper from the second root",
		locs(t, s.call("go_to_definition", map[string]any{"path": main, "line": 2, "column": 5})),
		[]string{at(lib, 1, 5)})
	sameList(t, "references of helper from the second root",
		locs(t, s.call("find_references", map[string]any{"path": main, "line": 2, "column": 5})),
		[]string{at(lib, 1, 5), at(main, 1, 17), at(main, 2, 5)})
	// The first root's own files still look in the first root.
	sameList(t, "definition of helper in the first root",
		locs(t, s.call("go_to_definition", map[string]any{"path": "decoy.py", "line": 1, "column": 5})),
		[]string{at("decoy.py", 1, 5)})
}
