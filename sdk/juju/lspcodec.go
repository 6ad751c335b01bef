package juju

import "github.com/jujutools/juju/sdk/abi"

// A language server's answer can hold hundreds of symbols or locations (a
// file's outline, a name's references): read through the reflection-driven
// codec inside wasm, it cost more than the host's whole part of the call.
// decodeLSPResult reads it field by field, exactly as encoding/json would;
// an answer it does not know how to read (a field it does not know, a
// null, the servers listing) is left to the general decoder.

// decodeLSPResult decodes a juju_lsp answer header into r, which must be
// zero, or reports false. A key given twice whose value is an array or an
// object declines: encoding/json decodes the second into what the first
// left, field by field.
func decodeLSPResult(data []byte, r *abi.LSPResult) bool {
	d := fastDecoder{data: data}
	var seen [4]bool // locations, symbols, diagnostics, error
	once := func(i int) bool {
		if seen[i] {
			return false
		}
		seen[i] = true
		return true
	}
	ok := d.fields(func(key []byte) bool {
		switch string(key) {
		case "unregistered":
			return d.boolField(&r.Unregistered)
		case "language":
			return d.stringField(&r.Language)
		case "server":
			return d.stringField(&r.Server)
		case "pulled":
			return d.boolField(&r.Pulled)
		case "truncated":
			return d.boolField(&r.Truncated)
		case "hidden":
			return d.intField(&r.Hidden)
		case "locations":
			if !once(0) {
				return false
			}
			r.Locations = []abi.LSPLocation{}
			return d.elements(func() bool {
				r.Locations = append(r.Locations, abi.LSPLocation{})
				return d.lspLocation(&r.Locations[len(r.Locations)-1])
			})
		case "symbols":
			return once(1) && d.lspSymbols(&r.Symbols)
		case "diagnostics":
			if !once(2) {
				return false
			}
			r.Diagnostics = []abi.LSPDiagnostic{}
			return d.elements(func() bool {
				r.Diagnostics = append(r.Diagnostics, abi.LSPDiagnostic{})
				return d.lspDiagnostic(&r.Diagnostics[len(r.Diagnostics)-1])
			})
		case "error":
			if !once(3) {
				return false
			}
			r.Error = new(abi.Error)
			return d.errorField(r.Error)
		}
		return false
	})
	return ok && d.end()
}

func (d *fastDecoder) lspLocation(l *abi.LSPLocation) bool {
	return d.nested(func() bool {
		return d.fields(func(key []byte) bool {
			switch string(key) {
			case "path":
				return d.stringField(&l.Path)
			case "outside":
				return d.boolField(&l.Outside)
			case "line":
				return d.intField(&l.Line)
			case "column":
				return d.intField(&l.Column)
			case "endLine":
				return d.intField(&l.EndLine)
			case "endColumn":
				return d.intField(&l.EndColumn)
			case "text":
				return d.stringField(&l.Text)
			}
			return false
		})
	})
}

// lspSymbols reads an array of symbols into *syms, replacing what it held
// as encoding/json does.
func (d *fastDecoder) lspSymbols(syms *[]abi.LSPSymbol) bool {
	*syms = []abi.LSPSymbol{}
	return d.elements(func() bool {
		*syms = append(*syms, abi.LSPSymbol{})
		return d.lspSymbol(&(*syms)[len(*syms)-1])
	})
}

func (d *fastDecoder) lspSymbol(s *abi.LSPSymbol) bool {
	children := false
	return d.nested(func() bool {
		return d.fields(func(key []byte) bool {
			switch string(key) {
			case "name":
				return d.stringField(&s.Name)
			case "kind":
				return d.stringField(&s.Kind)
			case "detail":
				return d.stringField(&s.Detail)
			case "container":
				return d.stringField(&s.Container)
			case "path":
				return d.stringField(&s.Path)
			case "outside":
				return d.boolField(&s.Outside)
			case "line":
				return d.intField(&s.Line)
			case "column":
				return d.intField(&s.Column)
			case "endLine":
				return d.intField(&s.EndLine)
			case "endColumn":
				return d.intField(&s.EndColumn)
			case "children":
				if children {
					return false
				}
				children = true
				return d.lspSymbols(&s.Children)
			}
			return false
		})
	})
}

func (d *fastDecoder) lspDiagnostic(g *abi.LSPDiagnostic) bool {
	return d.nested(func() bool {
		return d.fields(func(key []byte) bool {
			switch string(key) {
			case "path":
				return d.stringField(&g.Path)
			case "severity":
				return d.stringField(&g.Severity)
			case "code":
				return d.stringField(&g.Code)
			case "source":
				return d.stringField(&g.Source)
			case "message":
				return d.stringField(&g.Message)
			case "line":
				return d.intField(&g.Line)
			case "column":
				return d.intField(&g.Column)
			case "endLine":
				return d.intField(&g.EndLine)
			case "endColumn":
				return d.intField(&g.EndColumn)
			}
			return false
		})
	})
}

// appendLSPRequest appends req's JSON, as json.Marshal writes it: every
// semantic tool's request, written without the reflection of the SDK's
// general encoder.
func appendLSPRequest(b []byte, req *abi.LSPRequest) []byte {
	b = abi.AppendJSONString(append(b, `{"op":`...), req.Op, true)
	if req.Path != "" {
		b = abi.AppendJSONString(append(b, `,"path":`...), req.Path, true)
	}
	b = appendIntField(b, `,"line":`, int64(req.Line))
	b = appendIntField(b, `,"column":`, int64(req.Column))
	if req.Query != "" {
		b = abi.AppendJSONString(append(b, `,"query":`...), req.Query, true)
	}
	if req.IncludeDeclaration {
		b = append(b, `,"includeDeclaration":true`...)
	}
	b = appendIntField(b, `,"maxResults":`, int64(req.MaxResults))
	return append(b, '}')
}
