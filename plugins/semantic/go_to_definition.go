package semantic

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// PositionArgs name a place in a file.
type PositionArgs struct {
	Path   string `json:"path" jsonschema:"required" min:"1" desc:"The source file: relative to the first workspace root, or absolute inside a root."`
	Line   int    `json:"line" jsonschema:"required" min:"1" desc:"1-based line of the identifier."`
	Column int    `json:"column" jsonschema:"required" min:"1" desc:"1-based column of the identifier (any character of it), counted in Unicode code points, as the other tools give columns."`
}

// LocationsResult is the structured content of go_to_definition and
// find_references.
type LocationsResult struct {
	Source    string     `json:"source" enum:"lsp,heuristic" desc:"lsp: answered by the registered language server; heuristic: found by name by juju's pattern index (no server registered)."`
	Server    string     `json:"server,omitempty" desc:"The language server that answered."`
	Symbol    string     `json:"symbol,omitempty" desc:"The name looked up (heuristic answers, or find_references by symbol)."`
	Locations []Location `json:"locations" jsonschema:"required" desc:"The places found."`
	Truncated bool       `json:"truncated,omitempty" desc:"More places exist than are listed."`
	Note      string     `json:"note,omitempty" desc:"What to know about this answer."`
}

func init() {
	juju.Tool("go_to_definition", juju.ReadTool("Go to definition",
		"Finds where the identifier at path:line:column is defined (line and column 1-based, column in Unicode code points). "+
			"Asks the language server registered for the file's language, so the answer is semantic and current after edits, across files and packages; "+
			"definitions outside the workspace (standard library, dependencies) are named but not read. "+
			"Without a registered server it finds definitions of the identifier's name with a pattern index, marked source: heuristic. "+
			"Each location comes with its line's text.",
		LocationsResult{}), goToDefinition)
}

func goToDefinition(_ *juju.Call, in PositionArgs) (*juju.Result, error) {
	res, err := lspCall(abi.LSPRequest{Op: abi.LSPDefinition, Path: in.Path, Line: in.Line, Column: in.Column})
	if err != nil {
		return nil, err
	}
	if res.Unregistered {
		return heuristicDefinition(in, res.Language, rootScope(res))
	}
	out := LocationsResult{Source: sourceLSP, Server: res.Server, Locations: []Location{}, Truncated: res.Truncated}
	for _, l := range res.Locations {
		out.Locations = append(out.Locations, locationOf(l))
	}
	if len(out.Locations) == 0 {
		out.Note = fmt.Sprintf("the language server found no definition at %s; check that line and column point at an identifier", position(in.Path, in.Line, in.Column))
		if d := unresolvedImport(in.Path); d != nil {
			out.Note = fmt.Sprintf("the language server found no definition at %s, and %s has an import it cannot resolve (line %d: %s): a name from it has no definition it can find; see get_diagnostics for %s",
				position(in.Path, in.Line, in.Column), in.Path, d.Line, cutText(d.Message), in.Path)
		}
	}
	return renderLocations("Definition", &out), nil
}

// heuristicDefinition finds definitions of the name at the position in
// scope, the root holding the file.
func heuristicDefinition(in PositionArgs, language, scope string) (*juju.Result, error) {
	line, err := lineOf(in.Path, in.Line)
	if err != nil {
		return nil, err
	}
	name := identifierAt(line, in.Column)
	if name == "" {
		return nil, juju.Errorf(abi.InvalidArgument, "no identifier at %s (the line reads %q); point line and column at a name", position(in.Path, in.Line, in.Column), cutText(line))
	}
	syms, cut, err := heuristicFind(scope, nil, name, false, 50)
	if err != nil {
		return nil, err
	}
	out := LocationsResult{Source: sourceHeuristic, Symbol: name, Locations: []Location{}, Truncated: cut,
		Note: "found by name with juju's pattern index, not by a language server: every definition of " + name + " is listed. " + registerHint(language)}
	for _, s := range syms {
		out.Locations = append(out.Locations, Location{Path: s.Path, Line: s.Line, Column: s.Column, EndLine: s.Line,
			EndColumn: s.Column + len([]rune(s.Name)), Text: s.Text})
	}
	return renderLocations("Definition", &out), nil
}

// rootScope is the folder the heuristic index looks in for a file's
// names: the workspace root holding the file, which the host names when
// it is not the first.
func rootScope(res *abi.LSPResult) string {
	if res.Root != "" {
		return res.Root
	}
	return "."
}

// renderLocations writes the text of a locations answer, cutting both
// parts to their caps.
func renderLocations(what string, out *LocationsResult) *juju.Result {
	return juju.Text(locationsText(what, out)).WithStructured(out)
}

// locationsText cuts out to the caps and writes its text.
func locationsText(what string, out *LocationsResult) string {
	if out.fit() {
		out.Truncated = true
	}
	var b textBuilder
	for _, l := range out.Locations {
		if !b.add(locationLine(l)) {
			break
		}
	}
	src := "language server " + out.Server
	if out.Source == sourceHeuristic {
		src = "heuristic index"
	}
	summary := fmt.Sprintf("[%d %s", len(out.Locations), plural(len(out.Locations), "location", "locations"))
	if out.Symbol != "" {
		summary += " of " + out.Symbol
	}
	summary += "; " + src
	if out.Truncated || b.cut {
		out.Truncated = true
		summary += "; more exist, not listed"
	}
	summary += "]"
	if len(out.Locations) == 0 {
		summary = fmt.Sprintf("%s: nothing found (%s).", what, src)
	}
	b.WriteString(summary + "\n")
	if out.Note != "" {
		b.WriteString("Note: " + out.Note + "\n")
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// unresolvedImport is the first diagnostic of path saying one of its
// imports cannot be resolved (pyright's reportMissingImports, gopls's
// "could not import"), or nil; asked only when a definition came back
// empty, which such an import explains better than a wrong column.
func unresolvedImport(path string) *abi.LSPDiagnostic {
	res, err := lspCall(abi.LSPRequest{Op: abi.LSPDiagnostics, Path: path})
	if err != nil {
		return nil
	}
	for i, d := range res.Diagnostics {
		if d.Code == "reportMissingImports" || strings.Contains(d.Message, "could not import") {
			return &res.Diagnostics[i]
		}
	}
	return nil
}
