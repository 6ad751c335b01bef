package lsp

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/jujutools/juju/sdk/abi"
)

// locations answers definition and references.
func (m *Manager) locations(ctx context.Context, req *abi.LSPRequest) (*abi.LSPResult, *abi.Error) {
	t, res, e := m.targetOf(req.Path)
	if t == nil {
		return res, e
	}
	if req.Line < 1 {
		return nil, abi.Errorf(abi.InvalidArgument, "line must be 1 or more (1-based)")
	}
	res = &abi.LSPResult{Language: t.lang.Name, Server: t.reg.Name, Locations: []abi.LSPLocation{}}
	e = m.withServer(ctx, t, func(c *client) error {
		d, err := m.readOpen(ctx, c, t.res)
		if err != nil {
			return err
		}
		tx := c.docText(d)
		if n := tx.shownLines(); req.Line > n {
			return abi.Errorf(abi.InvalidArgument, "line %d is past the end of %s (%d lines); count lines from 1 as read_file numbers them", req.Line, shownPath(t.res.Display), n)
		}
		if e := pointsAtText(tx.shownLine(req.Line-1), t.res.Display, req.Line, req.Column); e != nil {
			return e
		}
		pos := textDocumentPosition{TextDocument: textDocumentID{URI: d.uri},
			Position: tx.toServerPos(req.Line-1, req.Column, c.enc, c.lfOnly)}
		var raw json.RawMessage
		if req.Op == abi.LSPDefinition {
			err = c.call(ctx, "textDocument/definition", pos, &raw)
		} else {
			p := referenceParams{textDocumentPosition: pos}
			p.Context.IncludeDeclaration = req.IncludeDeclaration
			err = c.call(ctx, "textDocument/references", p, &raw)
		}
		if err != nil {
			return err
		}
		locs, err := decodeLocations(raw)
		if err != nil {
			return abi.Errorf(abi.Internal, "the language server %s gave an answer juju could not read", t.reg.Name)
		}
		pl := m.places(c)
		for _, l := range locs {
			loc, withheld := pl.location(l.URI, l.Range)
			if withheld {
				continue // not counted, and no room taken: see places.file
			}
			res.Locations = append(res.Locations, loc)
		}
		// Sorted before the cut, so that the places kept are the first in
		// the roots' order, not whichever the server happened to list first.
		sortLocations(res.Locations)
		if len(res.Locations) > req.MaxResults {
			res.Locations, res.Truncated = res.Locations[:req.MaxResults], true
		}
		return nil
	})
	return res, e
}

// pointsAtText refuses a column past the end of its line, or on a space or
// tab: a server would answer for the identifier nearest the clamped
// position, or for none, and the model would not learn that it miscounted.
func pointsAtText(line, display string, lineNo, column int) *abi.Error {
	n := utf8.RuneCountInString(line)
	if column > n {
		return abi.Errorf(abi.InvalidArgument, "column %d is past the end of line %d of %s, which has %d columns (%s); point column at a character of the identifier, counting code points from 1",
			column, lineNo, display, n, abi.Quote(line))
	}
	r, _ := utf8.DecodeRuneInString(line[byteOffset(line, column):])
	if r == ' ' || r == '\t' {
		return abi.Errorf(abi.InvalidArgument, "column %d of line %d of %s is whitespace (%s); point column at a character of the identifier, counting code points from 1 (a tab is one column)",
			column, lineNo, display, abi.Quote(line))
	}
	return nil
}

// byteOffset is the byte offset of 1-based code-point column on line.
func byteOffset(line string, column int) int {
	i := 0
	for cp := 1; cp < column && i < len(line); cp++ {
		_, size := utf8.DecodeRuneInString(line[i:])
		i += size
	}
	return i
}

func sortLocations(locs []abi.LSPLocation) {
	sort.SliceStable(locs, func(i, j int) bool {
		a, b := locs[i], locs[j]
		if a.Outside != b.Outside {
			return !a.Outside
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

// documentSymbols answers the symbol tree of one file.
func (m *Manager) documentSymbols(ctx context.Context, req *abi.LSPRequest) (*abi.LSPResult, *abi.Error) {
	t, res, e := m.targetOf(req.Path)
	if t == nil {
		return res, e
	}
	res = &abi.LSPResult{Language: t.lang.Name, Server: t.reg.Name, Symbols: []abi.LSPSymbol{}}
	e = m.withServer(ctx, t, func(c *client) error {
		d, err := m.readOpen(ctx, c, t.res)
		if err != nil {
			return err
		}
		var raw json.RawMessage
		if err := c.call(ctx, "textDocument/documentSymbol", map[string]any{"textDocument": textDocumentID{URI: d.uri}}, &raw); err != nil {
			return err
		}
		tree, flat, cut, err := decodeSymbols(raw, req.MaxResults)
		if err != nil {
			return abi.Errorf(abi.Internal, "the language server %s gave an answer juju could not read", t.reg.Name)
		}
		pl := m.places(c)
		if flat != nil {
			res.Symbols, res.Truncated = pl.symbolList(flat, req.MaxResults)
		} else {
			n := 0
			res.Symbols = pl.symbolTree(d.uri, tree, &n, req.MaxResults, &res.Truncated)
		}
		res.Truncated = res.Truncated || cut
		return nil
	})
	return res, e
}

// workspaceSymbols asks the server of req.Path's language (a file; or,
// for a folder or no path, every registration with a running server, or
// else with a file under it) for symbols matching req.Query.
func (m *Manager) workspaceSymbols(ctx context.Context, req *abi.LSPRequest) (*abi.LSPResult, *abi.Error) {
	targets, res, e := m.symbolTargets(req.Path)
	if targets == nil {
		return res, e
	}
	res = &abi.LSPResult{Symbols: []abi.LSPSymbol{}}
	var failed *abi.Error
	for _, t := range targets {
		e := m.withServer(ctx, t, func(c *client) error {
			if t.res != nil && t.res.Info.Mode().IsRegular() {
				// Opening the file picks its module or package for the
				// servers that answer for open files' projects.
				if f, e := m.read(t.res); e == nil {
					if _, err := c.open(ctx, f); err != nil {
						return err
					}
				}
			}
			c.waitSettled(ctx, m.opts.ReadyTimeout, "")
			var raw json.RawMessage
			if err := c.call(ctx, "workspace/symbol", map[string]any{"query": req.Query}, &raw); err != nil {
				return err
			}
			_, flat, unread, err := decodeSymbols(raw, req.MaxResults)
			if err != nil {
				return abi.Errorf(abi.Internal, "the language server %s gave an answer juju could not read", t.reg.Name)
			}
			syms, cut := m.places(c).symbolList(flat, req.MaxResults-len(res.Symbols))
			res.Symbols = append(res.Symbols, syms...)
			res.Truncated = res.Truncated || cut || unread || len(flat) == serverSymbolCap
			return nil
		})
		if e != nil {
			// One server that cannot start or answer (not installed, a
			// crash) leaves out its languages, not the others' symbols.
			if failed == nil {
				failed = e
			}
			res.Skipped = append(res.Skipped, e.Message)
			continue
		}
		addServer(res, t.reg.Name)
	}
	if res.Server == "" && failed != nil {
		return nil, failed
	}
	return res, nil
}

// serverSymbolCap is the most workspace symbols gopls answers with (its
// maxSymbols) and clangd by default (--limit-results): the best-scored
// ones, with nothing saying more matched. An answer of exactly that many
// is taken as cut, so a query matching thousands of names says that more
// exist rather than passing the server's first hundred off as all of them;
// a longer one comes from a server that does not cut (pyright) and is
// whole.
const serverSymbolCap = 100

// addServer names a server among those that answered res, once.
func addServer(res *abi.LSPResult, name string) {
	for _, s := range strings.Split(res.Server, ",") {
		if s == name {
			return
		}
	}
	if res.Server != "" {
		res.Server += ","
	}
	res.Server += name
}

// diagnostics answers the diagnostics of one file, or of every file open
// in a running server.
func (m *Manager) diagnostics(ctx context.Context, req *abi.LSPRequest) (*abi.LSPResult, *abi.Error) {
	if req.Path == "" {
		return m.allDiagnostics(ctx, req)
	}
	t, res, e := m.targetOf(req.Path)
	if t == nil {
		return res, e
	}
	res = &abi.LSPResult{Language: t.lang.Name, Server: t.reg.Name, Diagnostics: []abi.LSPDiagnostic{}}
	e = m.withServer(ctx, t, func(c *client) error {
		d, err := m.readOpen(ctx, c, t.res)
		if err != nil {
			return err
		}
		items, pulled, state, err := c.fileDiagnostics(ctx, d)
		if err != nil {
			return err
		}
		res.Pulled = pulled
		pl := m.places(c)
		res.Unsettled = pl.unsettled(res.Unsettled, d, state)
		res.Diagnostics = pl.diagnostics(d.uri, items)
		cutDiagnostics(res, req.MaxResults)
		return nil
	})
	return res, e
}

// allDiagnostics gathers the diagnostics of the files open in every
// running server.
func (m *Manager) allDiagnostics(ctx context.Context, req *abi.LSPRequest) (*abi.LSPResult, *abi.Error) {
	res := &abi.LSPResult{Diagnostics: []abi.LSPDiagnostic{}}
	for _, c := range m.running() {
		if err := c.flush(ctx); err != nil {
			continue // it died: it has nothing open any more
		}
		c.mu.Lock()
		var docs []*openDoc
		for _, d := range c.docs {
			docs = append(docs, d)
		}
		c.mu.Unlock()
		sort.Slice(docs, func(i, j int) bool { return docs[i].path < docs[j].path })
		pl := m.places(c)
		for _, d := range docs {
			items, pulled, state, err := c.fileDiagnostics(ctx, d)
			if err != nil {
				if e := m.callFailure(ctx, c.reg.Name, err); e.Code == abi.Timeout {
					return nil, e
				}
				continue
			}
			res.Pulled = res.Pulled || pulled
			res.Unsettled = pl.unsettled(res.Unsettled, d, state)
			res.Diagnostics = append(res.Diagnostics, pl.diagnostics(d.uri, items)...)
		}
		addServer(res, c.reg.Name)
	}
	cutDiagnostics(res, req.MaxResults)
	return res, nil
}

// unsettled adds d to list, by its display path, when its diagnostics were
// not current (a withheld file is never open, and never named).
func (p *places) unsettled(list []abi.LSPUnsettled, d *openDoc, state diagState) []abi.LSPUnsettled {
	if state == diagCurrent {
		return list
	}
	_, display, _, _, withheld := p.file(d.uri)
	if withheld {
		return list
	}
	return append(list, abi.LSPUnsettled{Path: display, Silent: state == diagNone})
}

// cutDiagnostics orders res's diagnostics by file and position, as
// get_diagnostics promises (servers send them in their own order: pyright
// its syntax errors first), and keeps the first max.
func cutDiagnostics(res *abi.LSPResult, max int) {
	sort.SliceStable(res.Diagnostics, func(i, j int) bool {
		a, b := res.Diagnostics[i], res.Diagnostics[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	if len(res.Diagnostics) > max {
		res.Diagnostics = res.Diagnostics[:max]
		res.Truncated = true
	}
}
