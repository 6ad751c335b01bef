package semantic

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
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

// TestDiagnosticsTextCountsEveryDiagnostic: the summary counts every
// diagnostic of the answer, not only those whose lines fit the text, says how
// many lines it left out, and speaks of one error in the singular.
func TestDiagnosticsTextCountsEveryDiagnostic(t *testing.T) {
	out := &DiagnosticsResult{Source: sourceLSP, Server: "gopls"}
	for i := range 1000 {
		sev := "error"
		if i%4 == 0 {
			sev = "warning"
		}
		out.Diagnostics = append(out.Diagnostics, Diagnostic{Path: "a.go", Severity: sev, Message: strings.Repeat("m", 200), Line: i + 1, Column: 1})
	}
	text := diagnosticsText("in a.go", out)
	if out.Errors != 750 || out.Warnings != 250 {
		t.Fatalf("counted %d errors and %d warnings, want 750 and 250", out.Errors, out.Warnings)
	}
	lines := strings.Count(text, "\n") - 1
	if lines >= 1000 {
		t.Fatalf("all %d lines fit; the test needs more", lines)
	}
	want := "[750 errors, 250 warnings in a.go (language server gopls); " + strconv.Itoa(lines) + " listed; " + strconv.Itoa(1000-lines) + " more not shown"
	if !strings.Contains(text, want) {
		t.Fatalf("summary: want %q in %q", want, text[strings.LastIndexByte(text[:len(text)-1], '\n')+1:])
	}

	one := &DiagnosticsResult{Source: sourceLSP, Server: "gopls", Diagnostics: []Diagnostic{{Path: "a.go", Severity: "error", Message: "x", Line: 1, Column: 1}}}
	if text := diagnosticsText("in a.go", one); !strings.Contains(text, "[1 error, 0 warnings in a.go (language server gopls); 1 listed]") {
		t.Fatalf("one error: %q", text)
	}
	none := &DiagnosticsResult{Source: sourceLSP}
	if text := diagnosticsText("in the open files", none); text != "No diagnostics in the open files.\n" {
		t.Fatalf("none, no server: %q", text)
	}
}

// TestUnsettledNote: files the server sent nothing about are named apart
// from those whose diagnostics are older than their text.
func TestUnsettledNote(t *testing.T) {
	note := unsettledNote([]abi.LSPUnsettled{{Path: "a.go", Silent: true}, {Path: "b.go"}, {Path: "c.go", Silent: true}})
	if !strings.Contains(note, "sent no diagnostics for a.go, c.go before") || !strings.Contains(note, "the diagnostics of b.go are from before the latest change") {
		t.Fatalf("%q", note)
	}
	if unsettledNote(nil) != "" {
		t.Fatal("a note with nothing unsettled")
	}
}
