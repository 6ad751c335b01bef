package semantic

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/juju"
)

// awkward are strings encoding/json writes with escapes: quotes,
// backslashes, control characters, HTML, invalid UTF-8, the JavaScript line
// separators, and plain ones.
var awkward = []string{"", "plain", `a"b\c`, "tab\tnew\nline\r", "\x00\x01\x1f", "<a href='x'>&amp;</a>", "\xff\xfe bad", "ok \u2028 \u2029 é 😀", strings.Repeat("x", 300)}

func word(i int) string { return awkward[i%len(awkward)] }

func sampleLocations(n int) []Location {
	var out []Location
	for i := range n {
		out = append(out, Location{Path: word(i), Line: i, Column: i % 3, EndLine: i % 2 * i, EndColumn: i % 5, Text: word(i + 1), Outside: i%4 == 1})
	}
	return out
}

func sampleSymbols(n int) []Symbol {
	var out []Symbol
	for i := range n {
		out = append(out, Symbol{Name: word(i), NamePath: word(i + 2), Kind: word(i + 3), Detail: word(i + 4), Container: word(i + 5), Path: word(i + 6),
			Line: i * 7, Column: i % 2, EndLine: i % 3, EndColumn: i % 4, Text: word(i + 7), Outside: i%3 == 0})
	}
	return out
}

func sampleTree(n, depth int) []TreeSymbol {
	out := []TreeSymbol{}
	for i := range n {
		t := TreeSymbol{Name: word(i), Kind: word(i + 1), Detail: word(i + 2), Line: i, Column: i % 2, EndLine: i % 3 * 10, EndColumn: i % 4}
		if depth > 0 && i%2 == 0 {
			for _, c := range sampleTree(min(n-1, 4), depth-1) {
				t.Children = append(t.Children, c)
			}
		}
		if i%5 == 4 {
			t.Children = []any{} // empty, not nil: omitted all the same
		}
		out = append(out, t)
	}
	return out
}

func sampleDiagnostics(n int) []Diagnostic {
	var out []Diagnostic
	for i := range n {
		out = append(out, Diagnostic{Path: word(i), Severity: word(i + 1), Code: word(i + 2), Source: word(i + 3), Message: word(i + 4),
			Line: i, Column: i % 3, EndLine: i % 2, EndColumn: i % 7})
	}
	return out
}

// Each answer's own JSON is encoding/json's, byte for byte: zero values,
// nil and empty lists, every escape.
func TestAnswersAppendJSON(t *testing.T) {
	var answers []juju.JSONAppender
	for i := range 12 {
		answers = append(answers,
			&LocationsResult{Source: word(i), Server: word(i + 1), Symbol: word(i + 2), Locations: sampleLocations(i), Truncated: i%2 == 0, Note: word(i + 3)},
			&SymbolsResult{Source: word(i), Server: word(i + 1), Symbols: sampleSymbols(i), Truncated: i%2 == 1, Note: word(i + 5)},
			&DocumentSymbolsResult{Source: word(i), Server: word(i + 1), Path: word(i + 2), Symbols: sampleTree(i%6, i%3), Count: i * 11, Truncated: i%3 == 0, Note: word(i + 4)},
			&DiagnosticsResult{Source: word(i), Server: word(i + 1), Pulled: i%2 == 0, Diagnostics: sampleDiagnostics(i), Errors: i, Warnings: i % 4, Truncated: i%3 == 2, Note: word(i + 6)},
		)
	}
	answers = append(answers, &LocationsResult{}, &SymbolsResult{}, &DocumentSymbolsResult{}, &DiagnosticsResult{},
		&LocationsResult{Locations: []Location{}}, &SymbolsResult{Symbols: []Symbol{}}, &DocumentSymbolsResult{Symbols: []TreeSymbol{}}, &DiagnosticsResult{Diagnostics: []Diagnostic{}})
	for i, a := range answers {
		want, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := a.AppendJSON(nil)
		if !ok || string(got) != string(want) {
			t.Errorf("answer %d (%T), AppendJSON:\n got %s (%v)\nwant %s", i, a, got, ok, want)
		}
	}
	// A child that is not a TreeSymbol is left to the SDK's encoder.
	odd := &DocumentSymbolsResult{Symbols: []TreeSymbol{{Name: "a", Children: []any{map[string]int{"x": 1}}}}}
	if _, ok := odd.AppendJSON(nil); ok {
		t.Error("a tree with a child that is not a TreeSymbol was written by hand")
	}
}

// An answer over the cap keeps the longest list that fits, all of one
// that fits, and says when it cut.
func TestFitKeepsTheLongestListThatFits(t *testing.T) {
	for _, n := range []int{0, 1, 10, 200, 5000} {
		locs := &LocationsResult{Source: sourceLSP, Locations: sampleLocations(n)}
		full := len(locs.Locations)
		cut := locs.fit()
		checkFit(t, fmt.Sprintf("locations of %d", n), locs, cut, full, len(locs.Locations), func(k int) juju.JSONAppender {
			c := *locs
			c.Locations = sampleLocations(n)[:k]
			return &c
		})

		syms := &SymbolsResult{Source: sourceLSP, Symbols: sampleSymbols(n)}
		cut = syms.fit()
		checkFit(t, fmt.Sprintf("symbols of %d", n), syms, cut, n, len(syms.Symbols), func(k int) juju.JSONAppender {
			c := *syms
			c.Symbols = sampleSymbols(n)[:k]
			return &c
		})

		diags := &DiagnosticsResult{Source: sourceLSP, Diagnostics: sampleDiagnostics(n)}
		cut = diags.fit()
		checkFit(t, fmt.Sprintf("diagnostics of %d", n), diags, cut, n, len(diags.Diagnostics), func(k int) juju.JSONAppender {
			c := *diags
			c.Diagnostics = sampleDiagnostics(n)[:k]
			return &c
		})
	}
	for _, n := range []int{0, 3, 40, 400} {
		tree := &DocumentSymbolsResult{Source: sourceLSP, Path: "a.go", Symbols: sampleTree(n, 2)}
		cut := tree.fit()
		checkFit(t, fmt.Sprintf("a tree of %d", n), tree, cut, n, len(tree.Symbols), func(k int) juju.JSONAppender {
			c := *tree
			c.Symbols = sampleTree(n, 2)[:k]
			return &c
		})
	}
}

// checkFit: the kept answer is within the cap less its reserve, one item
// more would not be, and cut says whether items were dropped.
func checkFit(t *testing.T, what string, kept juju.JSONAppender, cut bool, had, keep int, withFirst func(k int) juju.JSONAppender) {
	t.Helper()
	raw, _ := json.Marshal(kept)
	if len(raw) > maxStructured-structuredReserve {
		t.Errorf("%s: %d bytes kept, over the cap of %d", what, len(raw), maxStructured-structuredReserve)
	}
	if cut != (keep < had) {
		t.Errorf("%s: kept %d of %d, but cut says %v", what, keep, had, cut)
	}
	if keep < had {
		more, _ := json.Marshal(withFirst(keep + 1))
		if len(more) <= maxStructured-structuredReserve {
			t.Errorf("%s: kept %d of %d, yet %d would fit (%d bytes)", what, keep, had, keep+1, len(more))
		}
	}
}
