//go:build unix

package test

import (
	"fmt"
	"strings"
	"testing"
)

// A file whose first class holds more members than an answer shows (400
// methods, each with its parameters and locals as pyright lists them)
// keeps its outline: every top-level symbol is listed, and what is left
// out is the deepest level. Read depth first, the class used the whole
// budget: document_symbols listed no symbol at all, and depth 1 the class
// alone, without the function and class after it.
func TestLSPDocumentSymbolsOutlineOfABigClass(t *testing.T) {
	var b strings.Builder
	b.WriteString("class Big:\n")
	for i := range 400 {
		fmt.Fprintf(&b, "    def m%d(self, a, b):\n        x = a + b\n        return x\n\n", i)
	}
	b.WriteString("def after_big():\n    pass\n\nclass Small:\n    def s(self):\n        pass\n")
	root := workspace(t, map[string]string{"pyrightconfig.json": "{}", "big.py": b.String()})
	s := startHome(t, lspHome(t, pyrightServer(t)), root, "--mode", "trusted")

	type tree struct {
		Symbols []struct {
			Name     string
			Children []struct{ Name string }
		}
		Truncated bool
	}
	for _, depth := range []int{0, 1} {
		res := s.call("document_symbols", map[string]any{"path": "big.py", "depth": depth})
		var out tree
		decode(t, res, &out)
		var top []string
		for _, sym := range out.Symbols {
			top = append(top, sym.Name)
		}
		if strings.Join(top, " ") != "Big after_big Small" || !out.Truncated {
			t.Fatalf("depth %d: top-level symbols %q (truncated %v), want Big after_big Small:\n%s", depth, top, out.Truncated, text(res))
		}
		if depth == 0 && (len(out.Symbols[0].Children) != 400 || len(out.Symbols[2].Children) != 1) {
			t.Errorf("depth 0: %d members of Big, %d of Small; want 400 and 1", len(out.Symbols[0].Children), len(out.Symbols[2].Children))
		}
	}
}
