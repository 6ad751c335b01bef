//go:build unix

package test

import (
	"encoding/json"
	"testing"
)

// gopls indexes every file of the module, a file the owner denied too:
// workspace/symbol answers its declarations and textDocument/references
// its uses. juju drops them, and says nothing of them, so a query's
// answer does not tell whether the withheld file holds what it asks for:
// whether a name declared there begins with a prefix, whether it uses a
// name. Two modules alike in what juju shows, one whose denied vault.go
// declares NeedleVault and uses Shared and one whose vault.go does
// neither, get the same answers, byte for byte.
func TestLSPGoplsWithheldContentSaysNothing(t *testing.T) {
	type call struct {
		tool string
		args map[string]any
	}
	calls := []call{
		{"find_symbol", map[string]any{"query": "Needle"}},
		{"find_symbol", map[string]any{"query": "NeedleV"}},
		{"find_references", map[string]any{"path": "a.go", "line": 3, "column": 7}},
		{"find_references", map[string]any{"symbol": "Shared"}},
	}
	answers := func(hit bool) []string {
		vault := "package w\n\nfunc otherVault() int { return 1 }\n"
		if hit {
			vault = "package w\n\nfunc NeedleVault() int { return Shared }\n"
		}
		root := workspace(t, map[string]string{
			"go.mod":   "module example.com/w\n\ngo 1.22\n",
			"a.go":     "package w\n\nconst Shared = 1\n\nfunc NeedleA() int { return Shared }\n",
			"vault.go": vault,
		})
		home := lspHome(t, goplsServer(t))
		writeConfig(t, home, "[policy]\ndeny = [\"vault.go\"]\n")
		s := startHome(t, home, root, "--mode", "trusted")
		var out []string
		for _, c := range calls {
			res := s.call(c.tool, c.args)
			if res.IsError {
				t.Fatalf("%s %v: %s", c.tool, c.args, text(res))
			}
			b, _ := json.Marshal(res)
			out = append(out, string(b))
		}
		return out
	}
	hit, miss := answers(true), answers(false)
	for i, c := range calls {
		if hit[i] != miss[i] {
			t.Errorf("%s %v: the answer depends on the denied file's content:\n matching it: %s\n not:         %s", c.tool, c.args, hit[i], miss[i])
		}
	}
	// Not vacuous: the visible declaration and uses came back.
	var sym struct{ Symbols []struct{ Name string } }
	if err := json.Unmarshal([]byte(miss[0]), &struct {
		Structured *struct{ Symbols []struct{ Name string } } `json:"structuredContent"`
	}{&sym}); err != nil || len(sym.Symbols) != 1 || sym.Symbols[0].Name != "NeedleA" {
		t.Errorf("find_symbol Needle: want NeedleA alone: %s", miss[0])
	}
}
