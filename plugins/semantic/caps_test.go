package semantic

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCaps: a huge answer is cut to the caps, and the cut is said.
func TestCaps(t *testing.T) {
	out := &SymbolsResult{Source: sourceLSP, Server: "x"}
	for i := range 5000 {
		out.Symbols = append(out.Symbols, Symbol{Name: strings.Repeat("n", 40), NamePath: strings.Repeat("p", 60), Kind: "method",
			Path: "some/long/path/to/a/file.go", Line: i + 1, Column: 3, Text: strings.Repeat("t", 80)})
	}
	text := symbolsText("n", out)
	raw, _ := json.Marshal(out)
	if len(raw) >= 100_000 || len(text) >= 100_000 {
		t.Fatalf("structured %d bytes, text %d bytes", len(raw), len(text))
	}
	if !out.Truncated || !strings.Contains(text, "more exist") {
		t.Fatalf("the cut is not said: %.200s", text[len(text)-200:])
	}

	locs := &LocationsResult{Source: sourceLSP}
	for i := range 5000 {
		locs.Locations = append(locs.Locations, Location{Path: "a/b/c.go", Line: i + 1, Column: 1, Text: strings.Repeat("x", 200)})
	}
	text = locationsText("References", locs)
	raw, _ = json.Marshal(locs)
	if len(raw) >= 100_000 || len(text) >= 100_000 || !locs.Truncated {
		t.Fatalf("locations: structured %d, text %d, truncated %v", len(raw), len(text), locs.Truncated)
	}
}
