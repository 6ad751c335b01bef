//go:build unix

package test

import (
	"fmt"
	"strings"
	"testing"
)

// gopls answers workspace symbols with its best 100 matches and no word
// that more matched: a query matching hundreds of names must say more
// exist, not pass the first hundred off as all of them, while an exact
// name found among them is all there is.
func TestLSPFindSymbolSaysTheServerCutItsList(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\nfunc Fn() {}\n")
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "\nfunc Fn%d() {}\n", i)
	}
	root := workspace(t, map[string]string{
		"go.mod": "module example.com/p\n\ngo 1.22\n",
		"p.go":   b.String(),
	})
	home := lspHome(t)
	lspAddGopls(t, home)
	s := startHome(t, home, root, "--mode", "trusted")

	type symbols struct {
		Symbols []struct {
			Name string
			Line int
		}
		Truncated bool
	}
	res := s.call("find_symbol", map[string]any{"query": "Fn", "maxResults": 1000})
	var q symbols
	decode(t, res, &q)
	if len(q.Symbols) == 0 || len(q.Symbols) >= 301 || !q.Truncated || !strings.Contains(text(res), "more exist") {
		t.Fatalf("a query matching 301 names, of which the server listed %d, must say more exist: %s", len(q.Symbols), text(res))
	}

	res = s.call("find_symbol", map[string]any{"symbol": "Fn"})
	var x symbols
	decode(t, res, &x)
	if len(x.Symbols) != 1 || x.Symbols[0].Line != 3 || x.Truncated || strings.Contains(text(res), "more exist") {
		t.Fatalf("the one Fn, found among the server's matches, is all there is: %s", text(res))
	}
}
