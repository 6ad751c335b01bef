package semantic

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// FindReferencesArgs are the arguments of find_references.
type FindReferencesArgs struct {
	Path               string `json:"path,omitempty" desc:"The source file holding the identifier (with line and column), or, with symbol, a file or folder to look for the symbol in (default: the first root)."`
	Line               int    `json:"line,omitempty" min:"1" desc:"1-based line of the identifier."`
	Column             int    `json:"column,omitempty" min:"1" desc:"1-based column of the identifier, in Unicode code points."`
	Symbol             string `json:"symbol,omitempty" max:"1024" desc:"Instead of a position: the symbol's name path, e.g. Server.Run or helper; its definition is found first. A name path that names several declarations (Run in two types) lists the references of each, up to 5, and the result names them."`
	IncludeDeclaration *bool  `json:"includeDeclaration,omitempty" default:"true" desc:"List the declaration itself among the references."`
	MaxResults         int    `json:"maxResults,omitempty" default:"200" min:"1" max:"1000" desc:"The most references to return; the result says when more exist."`
}

func init() {
	juju.Tool("find_references", juju.ReadTool("Find references",
		"Finds every reference to a symbol: give path, line and column of an identifier (1-based, column in Unicode code points), "+
			"or symbol, a name path such as Server.Run. Asks the language server registered for the file's language, so references are exact "+
			"(not text matches) and current after edits; each comes with its line's text. "+
			"Without a registered server it lists whole-word text matches of the name instead, marked source: heuristic.",
		LocationsResult{}), findReferences)
}

func findReferences(_ *juju.Call, in FindReferencesArgs) (*juju.Result, error) {
	incl := in.IncludeDeclaration == nil || *in.IncludeDeclaration
	path, line, column, name := in.Path, in.Line, in.Column, ""
	if in.Symbol != "" && (in.Line != 0 || in.Column != 0) {
		return nil, juju.Errorf(abi.InvalidArgument, "give either path, line and column of an identifier, or symbol (a name path, with path only to narrow where it is looked for), not both; leave out line and column, or symbol")
	}
	var defs []Symbol // with symbol: the declarations it names
	more := false     // and more than those were found
	if in.Symbol != "" {
		var server string
		var err error
		defs, server, more, err = resolveSymbol(in.Symbol, in.Path)
		if err != nil {
			return nil, err
		}
		if len(defs) == 0 {
			if server != "" {
				return wordMatches(in, in.Symbol, "", "the language server "+server+" found no declaration of "+in.Symbol+" inside the workspace to ask for its references (check the name with find_symbol query, or give path, line and column of a use)", ".")
			}
			return wordMatches(in, in.Symbol, "", "", ".")
		}
		path, line, column, name = defs[0].Path, defs[0].Line, defs[0].Column, in.Symbol
	} else if in.Path == "" || in.Line == 0 || in.Column == 0 {
		return nil, juju.Errorf(abi.InvalidArgument, "give path, line and column of an identifier, or symbol (a name path such as Server.Run)")
	}
	res, err := lspCall(abi.LSPRequest{Op: abi.LSPReferences, Path: path, Line: line, Column: column, IncludeDeclaration: incl, MaxResults: in.MaxResults})
	if err != nil {
		return nil, err
	}
	if res.Unregistered {
		if name == "" {
			text, err := lineOf(path, line)
			if err != nil {
				return nil, err
			}
			if name = identifierAt(text, column); name == "" {
				return nil, juju.Errorf(abi.InvalidArgument, "no identifier at %s; point line and column at a name", position(path, line, column))
			}
		}
		return wordMatches(in, name, res.Language, "", rootScope(res))
	}
	out := LocationsResult{Source: sourceLSP, Server: res.Server, Symbol: name, Locations: []Location{}, Truncated: res.Truncated}
	for _, l := range res.Locations {
		out.Locations = append(out.Locations, locationOf(l))
	}
	if len(defs) > 1 || more {
		if err := addReferences(&out, in, defs, more, incl); err != nil {
			return nil, err
		}
	}
	return renderLocations("References", &out), nil
}

// maxDeclarations is the most declarations of one name path whose
// references find_references lists together.
const maxDeclarations = 5

// addReferences adds to out, which holds the references of defs[0], the
// first declaration a name path names, those of the others: a name path that
// names several declarations (Run: A.Run and B.Run) is asked about each,
// as the heuristic's text matches are, and the note names them all, so
// an answer that lists one method's references is not read as every
// reference to the name.
func addReferences(out *LocationsResult, in FindReferencesArgs, defs []Symbol, more bool, incl bool) error {
	max := in.MaxResults
	if max <= 0 {
		max = 200
	}
	seen := map[string]bool{}
	for _, l := range out.Locations {
		seen[position(l.Path, l.Line, l.Column)] = true
	}
	for _, d := range defs[1:] {
		res, err := lspCall(abi.LSPRequest{Op: abi.LSPReferences, Path: d.Path, Line: d.Line, Column: d.Column, IncludeDeclaration: incl, MaxResults: max})
		if err != nil {
			return err
		}
		out.Truncated = out.Truncated || res.Truncated
		for _, l := range res.Locations {
			if k := position(l.Path, l.Line, l.Column); !seen[k] {
				seen[k] = true
				out.Locations = append(out.Locations, locationOf(l))
			}
		}
	}
	sort.SliceStable(out.Locations, func(i, j int) bool {
		a, b := out.Locations[i], out.Locations[j]
		return a.Path < b.Path || a.Path == b.Path && (a.Line < b.Line || a.Line == b.Line && a.Column < b.Column)
	})
	if len(out.Locations) > max {
		out.Locations, out.Truncated = out.Locations[:max], true
	}
	var names []string
	for _, d := range defs {
		names = append(names, declName(d))
	}
	out.Note = joinNote(out.Note, fmt.Sprintf("%s names more than one declaration; the references of each are listed together: %s", out.Symbol, strings.Join(names, ", ")))
	if more {
		out.Note += fmt.Sprintf(", and more not asked about (only the first %d are)", maxDeclarations)
	}
	out.Note += "; give a longer name path (Type.Method) or path, line and column of one to list its references alone"
	return nil
}

// declName names a declaration as a note lists it: its name path and place.
func declName(d Symbol) string {
	np := d.NamePath
	if np == "" {
		np = d.Name
	}
	return np + " at " + position(d.Path, d.Line, d.Column)
}

// resolveSymbol finds the declarations a name path names inside the
// workspace, best first, at most maxDeclarations: the language server's
// answer when one is registered, else the heuristic index's; none when
// there is none. server names the language servers asked, "" when none is
// registered; more: more declarations were found than are returned.
func resolveSymbol(symbol, scope string) (defs []Symbol, server string, more bool, err error) {
	found, err := findSymbols(symbol, false, scope, maxDeclarations+1)
	if err != nil {
		return nil, "", false, err
	}
	for _, s := range found.Symbols {
		if !s.Outside && s.Column > 0 {
			if len(defs) == maxDeclarations {
				return defs, found.Server, true, nil
			}
			defs = append(defs, s)
		}
	}
	return defs, found.Server, found.Truncated && len(defs) == maxDeclarations, nil
}

// wordMatches lists whole-word matches of name: the fallback without a
// language server, or when the servers found no declaration of name in
// the workspace (why says so; otherwise the note says how to register one).
// They are looked for in scope, the root holding the file asked about, or
// in the path given with a symbol.
func wordMatches(in FindReferencesArgs, name, language, why, scope string) (*juju.Result, error) {
	_, leaf := splitNamePath(name)
	if in.Symbol != "" && in.Path != "" {
		scope = in.Path
	}
	res, err := juju.Search(abi.SearchRequest{Pattern: `\b` + regexp.QuoteMeta(leaf) + `\b`, Path: scope, Glob: sourceGlob, MaxResults: in.MaxResults})
	if err != nil {
		return nil, err
	}
	out := LocationsResult{Source: sourceHeuristic, Symbol: leaf, Locations: []Location{}, Truncated: res.Truncated,
		Note: "whole-word text matches of " + leaf + ", not semantic references: other symbols of the same name, comments and strings are included. " + registerHint(language)}
	if why != "" {
		out.Note = "whole-word text matches of " + leaf + ", not semantic references, because " + why + "."
	}
	if res.Unavailable {
		out.Note = "ripgrep is not installed on the host, so no text matches could be listed; use search_code. " + registerHint(language)
		if why != "" {
			out.Note = "ripgrep is not installed on the host, so no text matches could be listed (use search_code), and " + why + "."
		}
	}
	for _, f := range res.Files {
		for _, m := range f.Matches {
			out.Locations = append(out.Locations, Location{Path: f.Path, Line: m.Line, Column: m.Column, Text: strings.TrimRight(m.Text, "\r")})
		}
	}
	sort.SliceStable(out.Locations, func(i, j int) bool {
		a, b := out.Locations[i], out.Locations[j]
		return a.Path < b.Path || a.Path == b.Path && a.Line < b.Line
	})
	return renderLocations(fmt.Sprintf("References to %s", leaf), &out), nil
}
