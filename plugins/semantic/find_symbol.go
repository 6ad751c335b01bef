package semantic

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// FindSymbolArgs are the arguments of find_symbol.
type FindSymbolArgs struct {
	Symbol     string `json:"symbol,omitempty" max:"1024" desc:"A name path to find exactly: a name (helper) or a name under its containers (Server.Run, pkg.Server.Run)."`
	Query      string `json:"query,omitempty" max:"1024" desc:"Instead of symbol: a part of the name to search for, ignoring case (Serv finds Server and ServeHTTP)."`
	Path       string `json:"path,omitempty" desc:"A folder or file to look in (default: the first root); its files' languages pick the language servers."`
	MaxResults int    `json:"maxResults,omitempty" default:"100" min:"1" max:"1000" desc:"The most symbols to return; the result says when more exist."`
}

// SymbolsResult is the structured content of find_symbol.
type SymbolsResult struct {
	Source    string   `json:"source" enum:"lsp,heuristic" desc:"lsp: found by the registered language servers; heuristic: by juju's pattern index (no server registered)."`
	Server    string   `json:"server,omitempty" desc:"The language servers asked."`
	Symbols   []Symbol `json:"symbols" jsonschema:"required" desc:"The symbols found, exact names first."`
	Truncated bool     `json:"truncated,omitempty" desc:"More symbols exist than are listed."`
	Note      string   `json:"note,omitempty" desc:"What to know about this answer."`
}

func init() {
	juju.Tool("find_symbol", juju.ReadTool("Find symbol",
		"Finds where symbols are declared across the workspace: symbol finds a name path exactly (Server.Run: the method Run of Server; helper: anything named helper), "+
			"query finds names containing a text, ignoring case. Returns each symbol's kind, container, path:line:column (1-based, column in code points) and line text; "+
			"feed a result's path, line and column to go_to_definition or find_references. "+
			"Asks the registered language servers (workspace symbols, or the symbols of the files that mention the name where a server's workspace search is weak); "+
			"without one it uses juju's pattern index, marked source: heuristic.",
		SymbolsResult{}), findSymbol)
}

func findSymbol(_ *juju.Call, in FindSymbolArgs) (*juju.Result, error) {
	q, fuzzy := in.Symbol, false
	switch {
	case in.Symbol != "" && in.Query != "":
		return nil, juju.Errorf(abi.InvalidArgument, "give symbol (an exact name path) or query (a part of a name), not both")
	case in.Symbol == "" && in.Query == "":
		return nil, juju.Errorf(abi.InvalidArgument, "give symbol (a name path such as Server.Run) or query (a part of a name)")
	case in.Query != "":
		q, fuzzy = in.Query, true
	}
	if strings.ContainsAny(q, "\r\n") {
		arg := "symbol"
		if fuzzy {
			arg = "query"
		}
		return nil, juju.Errorf(abi.InvalidArgument, "%s %s holds a line break, but a symbol's name is one line; give one name or part of one", arg, abi.Quote(q))
	}
	if _, name := splitNamePath(q); name == "" {
		return nil, juju.Errorf(abi.InvalidArgument, "%q holds no name to look for", q)
	}
	out, err := findSymbols(q, fuzzy, in.Path, in.MaxResults)
	if err != nil {
		return nil, err
	}
	return renderSymbols(q, out), nil
}

// findSymbols answers find_symbol: the language servers' workspace
// symbols; where they give no match, the document symbols of the files
// that mention the name; without a server, the heuristic index.
func findSymbols(q string, fuzzy bool, scope string, max int) (*SymbolsResult, error) {
	if max <= 0 {
		max = 100
	}
	containers, name := splitNamePath(q)
	res, err := lspCall(abi.LSPRequest{Op: abi.LSPWorkspaceSymbols, Query: name, Path: scope})
	if err != nil {
		return nil, err
	}
	if res.Unregistered {
		if scope == "" {
			scope = "."
		}
		syms, cut, err := heuristicFind(scope, containers, name, fuzzy, max)
		if err != nil {
			return nil, err
		}
		return &SymbolsResult{Source: sourceHeuristic, Symbols: orEmpty(syms), Truncated: cut,
			Note: "found with juju's pattern index, not by a language server: declarations only, matched by name. " + registerHint(res.Language)}, nil
	}
	out := &SymbolsResult{Source: sourceLSP, Server: res.Server, Symbols: []Symbol{}}
	named := 0
	for _, s := range res.Symbols {
		if matchNamePath(s.Name, s.Container, containers, name, fuzzy) {
			named++
			if underScope(s, scope) {
				out.Symbols = append(out.Symbols, symbolOf(s, ""))
			}
		}
	}
	// A server that cuts its list at a cap (gopls at 100) lists its best
	// matches first, which for an exact name path are its own: a list the
	// host did not cut (at maxResults' limit) that held other names too
	// most likely held all of them, and saying more exist would send the
	// model narrowing a search that found everything.
	out.Truncated = res.Truncated && (fuzzy || len(res.Symbols) >= maxSymbolResults || named == len(res.Symbols))
	if len(out.Symbols) == 0 {
		if err := documentSymbolSearch(out, scope, containers, name, fuzzy); err != nil {
			return nil, err
		}
	}
	for _, why := range res.Skipped {
		out.Note = joinNote(out.Note, "a language server was left out, so the symbols of its languages are missing: "+why)
	}
	sortSymbols(out.Symbols, name)
	if len(out.Symbols) > max {
		out.Symbols, out.Truncated = out.Symbols[:max], true
	}
	return out, nil
}

// maxSymbolResults is the most symbols the host returns (maxResults'
// limit): a list that long was cut by the host, in the server's order.
const maxSymbolResults = 1000

// joinNote adds a sentence to a note.
func joinNote(note, s string) string {
	if note == "" {
		return s
	}
	return note + ". " + s
}

// maxDocumentSearch bounds the files whose document symbols are asked for
// when workspace symbols find nothing.
const maxDocumentSearch = 20

// documentSymbolSearch asks for the document symbols of the files whose
// text mentions name, and keeps the symbols matching the name path.
func documentSymbolSearch(out *SymbolsResult, scope string, containers []string, name string, fuzzy bool) error {
	if scope == "" {
		scope = "."
	}
	files, _, err := candidates(scope, name, fuzzy)
	if err != nil {
		return err
	}
	asked := 0
	for _, f := range files {
		if asked >= maxDocumentSearch {
			out.Truncated = true
			break
		}
		res, err := lspCall(abi.LSPRequest{Op: abi.LSPDocumentSymbols, Path: f})
		if err != nil || res.Unregistered {
			continue
		}
		asked++
		var walk func(syms []abi.LSPSymbol, parents []string)
		walk = func(syms []abi.LSPSymbol, parents []string) {
			for _, s := range syms {
				container := strings.Join(parents, ".")
				if matchNamePath(s.Name, container, containers, name, fuzzy) {
					sym := symbolOf(abi.LSPSymbol{Name: s.Name, Kind: s.Kind, Detail: s.Detail, Container: container, Path: s.Path,
						Line: s.Line, Column: s.Column, EndLine: s.EndLine, EndColumn: s.EndColumn}, "")
					if container != "" {
						sym.NamePath = container + "." + s.Name
					}
					out.Symbols = append(out.Symbols, sym)
				}
				walk(s.Children, append(append([]string(nil), parents...), s.Name))
			}
		}
		walk(res.Symbols, nil)
	}
	out.Note = "the language server's workspace search found nothing, so the symbols of the files mentioning the name were searched"
	return nil
}

// underScope reports whether s lies under scope, a folder or file the
// call was narrowed to (workspace symbols cover the whole workspace, and
// beyond it).
func underScope(s abi.LSPSymbol, scope string) bool {
	scope = strings.TrimSuffix(strings.TrimPrefix(scope, "./"), "/")
	if scope == "" || scope == "." {
		return true
	}
	return !s.Outside && (s.Path == scope || strings.HasPrefix(s.Path, scope+"/"))
}

func orEmpty(s []Symbol) []Symbol {
	if s == nil {
		return []Symbol{}
	}
	return s
}

// sortSymbols puts exact names first, inside the roots before outside,
// then by place.
func sortSymbols(syms []Symbol, name string) {
	rank := func(s Symbol) int {
		r := 0
		if s.Name != name && !strings.HasSuffix(s.Name, "."+name) {
			r += 2
		}
		if s.Outside {
			r++
		}
		return r
	}
	for i := 1; i < len(syms); i++ {
		for j := i; j > 0; j-- {
			a, b := syms[j-1], syms[j]
			if ra, rb := rank(a), rank(b); ra < rb || ra == rb && (a.Path < b.Path || a.Path == b.Path && a.Line <= b.Line) {
				break
			}
			syms[j-1], syms[j] = syms[j], syms[j-1]
		}
	}
}

// renderSymbols writes find_symbol's answer within the caps.
func renderSymbols(q string, out *SymbolsResult) *juju.Result {
	return juju.Text(symbolsText(q, out)).WithStructured(out)
}

// symbolsText cuts out to the caps and writes its text.
func symbolsText(q string, out *SymbolsResult) string {
	if out.fit() {
		out.Truncated = true
	}
	var b textBuilder
	for _, s := range out.Symbols {
		desc := s.Kind + " " + s.NamePath
		if s.Detail != "" {
			desc += " " + s.Detail
		}
		place := position(s.Path, s.Line, s.Column)
		if s.Outside {
			place += " (outside the workspace: not read)"
		}
		if !b.add(desc + "  " + place) {
			break
		}
	}
	src := "language server " + out.Server
	if out.Source == sourceHeuristic {
		src = "heuristic index"
	}
	if len(out.Symbols) == 0 {
		b.WriteString(fmt.Sprintf("No symbol matches %q (%s). Check the spelling, try query for a part of the name, or widen path.\n", q, src))
	} else {
		summary := fmt.Sprintf("[%d %s; %s", len(out.Symbols), plural(len(out.Symbols), "symbol", "symbols"), src)
		if out.Truncated || b.cut {
			out.Truncated = true
			summary += "; more exist, not listed: narrow path or the name"
		}
		b.WriteString(summary + "]\n")
	}
	if out.Note != "" {
		b.WriteString("Note: " + out.Note + "\n")
	}
	return b.String()
}
