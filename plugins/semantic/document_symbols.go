package semantic

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// DocumentSymbolsArgs are the arguments of document_symbols.
type DocumentSymbolsArgs struct {
	Path  string `json:"path" jsonschema:"required" min:"1" desc:"The source file: relative to the first workspace root, or absolute inside a root."`
	Depth int    `json:"depth,omitempty" default:"0" min:"0" max:"10" desc:"How many levels of nesting to list (1: top-level declarations only); 0 lists every level."`
}

// TreeSymbol is one symbol of a file with the symbols declared inside it.
type TreeSymbol struct {
	Name      string `json:"name" desc:"The symbol's name."`
	Kind      string `json:"kind" desc:"function, method, class, struct, interface, variable, constant, field …"`
	Detail    string `json:"detail,omitempty" desc:"Signature or type, when the server gives one."`
	Line      int    `json:"line" desc:"1-based line of its name."`
	Column    int    `json:"column,omitempty" desc:"1-based column of its name, in code points."`
	EndLine   int    `json:"endLine,omitempty" desc:"1-based line where its declaration ends."`
	EndColumn int    `json:"endColumn,omitempty" desc:"1-based column just past its declaration's end."`
	Children  []any  `json:"children,omitempty" desc:"The symbols declared inside it, each shaped like this one."`
}

// DocumentSymbolsResult is the structured content of document_symbols.
type DocumentSymbolsResult struct {
	Source    string       `json:"source" enum:"lsp,heuristic" desc:"lsp: from the registered language server; heuristic: juju's pattern index (no server registered)."`
	Server    string       `json:"server,omitempty" desc:"The language server that answered."`
	Path      string       `json:"path" desc:"The file."`
	Symbols   []TreeSymbol `json:"symbols" jsonschema:"required" desc:"The file's top-level symbols, each with its children."`
	Count     int          `json:"count" desc:"How many symbols are listed, at every level."`
	Truncated bool         `json:"truncated,omitempty" desc:"Symbols were left out (depth, or the size cap)."`
	Note      string       `json:"note,omitempty" desc:"What to know about this answer."`
}

func init() {
	juju.Tool("document_symbols", juju.ReadTool("Document symbols",
		"Lists the symbols declared in one source file as a tree: types, classes, functions, methods, fields, constants …, "+
			"each with its kind and range (1-based lines, columns in code points). An outline of the file without reading all of it. "+
			"Asks the language server registered for the file's language; without one, juju's pattern index lists the declarations it recognises (source: heuristic). "+
			"depth limits the levels.",
		DocumentSymbolsResult{}), documentSymbols)
}

func documentSymbols(_ *juju.Call, in DocumentSymbolsArgs) (*juju.Result, error) {
	res, err := lspCall(abi.LSPRequest{Op: abi.LSPDocumentSymbols, Path: in.Path})
	if err != nil {
		return nil, err
	}
	out := &DocumentSymbolsResult{Path: in.Path, Symbols: []TreeSymbol{}}
	if res.Unregistered {
		defs, _, err := fileSymbols(in.Path)
		if err != nil {
			return nil, err
		}
		out.Source = sourceHeuristic
		out.Symbols = heuristicTree(defs)
		out.Note = "declarations recognised by juju's pattern index, not by a language server; ranges give the name only. " + registerHint(res.Language)
	} else {
		out.Source, out.Server, out.Truncated = sourceLSP, res.Server, res.Truncated
		if len(res.Symbols) > 0 {
			out.Path = res.Symbols[0].Path
		}
		for _, s := range res.Symbols {
			out.Symbols = append(out.Symbols, treeOf(s))
		}
	}
	if in.Depth > 0 && prune(out.Symbols, in.Depth) {
		out.Truncated = true
	}
	// Too large to show whole, the tree loses its deepest level first, so
	// that the outline stays: cut at the size cap as it is, a class whose
	// members filled the cap left the answer with no symbol at all.
	for d := treeDepth(out.Symbols) - 1; d >= 1 && out.tooLarge(); d-- {
		prune(out.Symbols, d)
		out.Truncated = true
	}
	if out.fit() {
		out.Truncated = true
	}
	var b textBuilder
	out.Count = writeTree(&b, out.Symbols, 0)
	summary := fmt.Sprintf("[%d %s in %s; ", out.Count, plural(out.Count, "symbol", "symbols"), juju.PathText(out.Path))
	if out.Source == sourceHeuristic {
		summary += "heuristic index"
	} else {
		summary += "language server " + out.Server
	}
	if out.Truncated || b.cut {
		out.Truncated = true
		summary += "; some left out: use depth, or find_symbol for one"
	}
	b.WriteString(summary + "]\n")
	if out.Note != "" {
		b.WriteString("Note: " + out.Note + "\n")
	}
	return juju.Text(b.String()).WithStructured(out), nil
}

func treeOf(s abi.LSPSymbol) TreeSymbol {
	t := TreeSymbol{Name: s.Name, Kind: s.Kind, Detail: s.Detail, Line: s.Line, Column: s.Column, EndLine: s.EndLine, EndColumn: s.EndColumn}
	for _, c := range s.Children {
		t.Children = append(t.Children, treeOf(c))
	}
	return t
}

// heuristicTree nests the definitions of a file by their containers.
func heuristicTree(defs []defn) []TreeSymbol {
	type node struct {
		t    TreeSymbol
		kids []*node
	}
	byPath := map[string]*node{}
	var top []*node
	for _, d := range defs {
		n := &node{t: TreeSymbol{Name: d.Name, Kind: d.Kind, Line: d.Line, Column: d.Column, EndLine: d.Line, EndColumn: d.Column + len([]rune(d.Name))}}
		if parent, ok := byPath[d.Container]; ok && d.Container != "" {
			parent.kids = append(parent.kids, n)
		} else {
			top = append(top, n)
		}
		if _, dup := byPath[d.NamePath]; !dup {
			byPath[d.NamePath] = n
		}
	}
	var build func(ns []*node) []TreeSymbol
	build = func(ns []*node) []TreeSymbol {
		out := make([]TreeSymbol, 0, len(ns))
		for _, n := range ns {
			t := n.t
			for _, k := range build(n.kids) {
				t.Children = append(t.Children, k)
			}
			out = append(out, t)
		}
		return out
	}
	return build(top)
}

// treeDepth is how many levels syms has.
func treeDepth(syms []TreeSymbol) int {
	d := 0
	for i := range syms {
		var kids []TreeSymbol
		for _, c := range syms[i].Children {
			if t, ok := c.(TreeSymbol); ok {
				kids = append(kids, t)
			}
		}
		d = max(d, 1+treeDepth(kids))
	}
	return d
}

// tooLarge reports whether r is past the size cap whole.
func (r *DocumentSymbolsResult) tooLarge() bool {
	c := *r // fit cuts the copy's list, not r's
	return c.fit()
}

// prune drops the levels below depth; it reports whether it dropped any.
func prune(syms []TreeSymbol, depth int) bool {
	cut := false
	for i := range syms {
		if depth <= 1 {
			if len(syms[i].Children) > 0 {
				syms[i].Children, cut = nil, true
			}
			continue
		}
		var kids []TreeSymbol
		for _, c := range syms[i].Children {
			kids = append(kids, c.(TreeSymbol))
		}
		if prune(kids, depth-1) {
			cut = true
		}
		for j := range kids {
			syms[i].Children[j] = kids[j]
		}
	}
	return cut
}

// writeTree writes one line per symbol, indented by level, and counts
// them (those past the text cap too: they are in the structured content).
func writeTree(b *textBuilder, syms []TreeSymbol, level int) int {
	n := 0
	for i := range syms {
		n += writeSymbol(b, &syms[i], level)
	}
	return n
}

// writeSymbol writes s and the symbols inside it; it returns how many.
func writeSymbol(b *textBuilder, s *TreeSymbol, level int) int {
	line := b.scratch[:0]
	for range level {
		line = append(line, "  "...)
	}
	line = append(append(append(line, s.Kind...), ' '), s.Name...)
	line = strconv.AppendInt(append(line, "  "...), int64(s.Line), 10)
	line = strconv.AppendInt(append(line, ':'), int64(s.Column), 10)
	if s.EndLine > s.Line {
		line = strconv.AppendInt(append(line, '-'), int64(s.EndLine), 10)
		line = strconv.AppendInt(append(line, ':'), int64(s.EndColumn), 10)
	}
	if s.Detail != "" {
		line = append(append(line, "  "...), oneLine(s.Detail)...)
	}
	b.addBytes(line)
	b.scratch = line
	n := 1
	for _, c := range s.Children {
		if t, ok := c.(TreeSymbol); ok {
			n += writeSymbol(b, &t, level+1)
		}
	}
	return n
}

func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}
