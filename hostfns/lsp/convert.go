package lsp

import (
	"encoding/json"

	"github.com/jujutools/juju/sdk/abi"
)

// maxLineText bounds the text of a line given with a location.
const maxLineText = 1000

// places converts a server's positions into juju's for one answer: it
// reads each file at most once, through the policy, preferring the text
// the server has open.
type places struct {
	m     *Manager
	c     *client
	texts map[string]*text // by absolute path; nil: not readable
	disp  map[string]string
	deny  map[string]bool
	// quoted caches what the paths diagnostics name were found to be.
	quoted map[string]lookedUp
}

func (m *Manager) places(c *client) *places {
	return &places{m: m, c: c, texts: map[string]*text{}, disp: map[string]string{}, deny: map[string]bool{}, quoted: map[string]lookedUp{}}
}

// file looks up the file a URI names. outside: it lies outside every root
// (named, never read). withheld: it is a secret or denied path, left out
// without a word. A server indexes the whole workspace, secrets included,
// and answers with places in them when they hold what was asked: a count
// of the places dropped, a note, or a cap that they filled would tell
// the model what they hold (whether a name in .env begins with a
// workspace-symbols query), so nothing of an answer depends on them.
func (p *places) file(uri string) (abs, display string, t *text, outside, withheld bool) {
	abs, ok := uriPath(uri)
	if !ok {
		return uri, uri, nil, true, false
	}
	if p.deny[abs] {
		return abs, "", nil, false, true
	}
	if d, ok := p.disp[abs]; ok {
		return abs, d, p.texts[abs], false, false
	}
	inRoot := false
	for _, r := range p.m.pol.Roots() {
		if within(abs, r.Real) || within(abs, r.Path) {
			inRoot = true
			break
		}
	}
	if !inRoot {
		return abs, abs, nil, true, false
	}
	r, e := p.m.pol.Resolve(abs)
	switch {
	case e != nil && (e.Code == abi.SecretDenied || e.Code == abi.PathDenied):
		p.deny[abs] = true
		return abs, "", nil, false, true
	case e != nil:
		// Gone since, or unreadable: named without a text.
		d := p.m.displayDir(abs)
		p.disp[abs] = d
		return abs, d, nil, false, false
	}
	p.disp[abs] = r.Display
	if d := p.c.doc(fileURI(abs)); d != nil {
		p.texts[abs] = p.c.docText(d)
	} else if r.Info.Mode().IsRegular() {
		if t := p.m.texts.get(abs, r.Info); t != nil {
			p.texts[abs] = t
		} else if f, e := p.m.read(r); e == nil {
			t := newText(f.body)
			p.texts[abs] = t
			p.m.texts.put(abs, r.Info, t)
		}
	}
	return abs, r.Display, p.texts[abs], false, false
}

// location converts one range in a file; withheld: the file is a secret
// or denied path, and loc is empty.
func (p *places) location(uri string, rg lspRange) (loc abi.LSPLocation, withheld bool) {
	_, display, t, outside, withheld := p.file(uri)
	if withheld {
		return loc, true
	}
	loc = abi.LSPLocation{Path: display, Outside: outside, Line: rg.Start.Line + 1}
	if outside || t == nil {
		return loc, false
	}
	var start string
	loc.Line, loc.Column, start = p.place(t, rg.Start)
	loc.EndLine, loc.EndColumn, _ = p.place(t, rg.End)
	loc.Text = cutLine(start)
	return loc, false
}

// place converts a position in t to read_file's 1-based line and
// code-point column, with that line's text (text.fromServerPos).
func (p *places) place(t *text, pos position) (line, col int, lineText string) {
	return t.fromServerPos(pos, p.c.enc, p.c.lfOnly)
}

// cutLine cuts a line's text at maxLineText bytes, on a code point.
func cutLine(s string) string { return abi.Cut(s, maxLineText) }

// decodeLocations reads what textDocument/definition and references
// answer: null, a Location, a list of Locations or of LocationLinks.
func decodeLocations(raw json.RawMessage) ([]location, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var one location
	if raw[0] == '{' {
		if err := json.Unmarshal(raw, &one); err != nil {
			return nil, err
		}
		return []location{one}, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, err
	}
	out := make([]location, 0, len(items))
	for _, it := range items {
		var probe struct {
			TargetURI *string `json:"targetUri"`
		}
		if err := json.Unmarshal(it, &probe); err != nil {
			return nil, err
		}
		if probe.TargetURI != nil {
			var l locationLink
			if err := json.Unmarshal(it, &l); err != nil {
				return nil, err
			}
			rg := l.TargetRange
			if l.TargetSelectionRange != nil {
				rg = *l.TargetSelectionRange
			}
			out = append(out, location{URI: l.TargetURI, Range: rg})
			continue
		}
		var loc location
		if err := json.Unmarshal(it, &loc); err != nil {
			return nil, err
		}
		out = append(out, loc)
	}
	return out, nil
}

// symbolTree converts document symbols of the file uri, counting into n
// and stopping at max.
func (p *places) symbolTree(uri string, syms []documentSymbol, n *int, max int, truncated *bool) []abi.LSPSymbol {
	out := make([]abi.LSPSymbol, 0, len(syms))
	for _, s := range syms {
		loc, withheld := p.location(uri, s.SelectionRange)
		if withheld {
			continue
		}
		if *n >= max {
			*truncated = true
			break
		}
		*n++
		full, _ := p.location(uri, s.Range)
		sym := abi.LSPSymbol{Name: s.Name, Kind: kindName(s.Kind), Detail: s.Detail, Path: loc.Path, Outside: loc.Outside,
			Line: loc.Line, Column: loc.Column, EndLine: full.EndLine, EndColumn: full.EndColumn}
		if len(s.Children) > 0 {
			sym.Children = p.symbolTree(uri, s.Children, n, max, truncated)
		}
		out = append(out, sym)
	}
	return out
}

// symbolList converts flat symbols, up to max of them; those in secret or
// denied files are left out and take no room.
func (p *places) symbolList(syms []symbolInformation, max int) (out []abi.LSPSymbol, truncated bool) {
	out = make([]abi.LSPSymbol, 0, min(len(syms), max))
	for _, s := range syms {
		loc, withheld := p.location(s.Location.URI, s.Location.Range)
		if withheld {
			continue
		}
		if len(out) >= max {
			return out, true
		}
		out = append(out, abi.LSPSymbol{Name: s.Name, Kind: kindName(s.Kind), Container: s.ContainerName,
			Path: loc.Path, Outside: loc.Outside, Line: loc.Line, Column: loc.Column, EndLine: loc.EndLine, EndColumn: loc.EndColumn})
	}
	return out, false
}

// diagnostics converts one file's diagnostics: none when the file is a
// secret or denied path (it was since juju opened it).
func (p *places) diagnostics(uri string, items []diagnostic) (out []abi.LSPDiagnostic) {
	for _, d := range items {
		loc, withheld := p.location(uri, d.Range)
		if withheld {
			return nil
		}
		if loc.Outside {
			continue
		}
		msg := d.Message
		if abs, ok := uriPath(uri); ok {
			if what := p.withheldQuote(abs, msg); what != "" {
				msg = "[juju withheld this message: it quotes " + what + ", whose text juju never shows; fix the code that makes the server read it]"
			}
		}
		out = append(out, abi.LSPDiagnostic{Path: loc.Path, Severity: severityName(d.Severity), Code: codeText(d.Code),
			Source: d.Source, Message: msg, Line: loc.Line, Column: max(loc.Column, 1),
			EndLine: max(loc.EndLine, loc.Line), EndColumn: max(loc.EndColumn, 1)})
	}
	return out
}
