package semantic

import (
	"strconv"

	"github.com/jujutools/juju/sdk/juju"
)

// The semantic tools' answers write their own JSON (juju.JSONAppender),
// byte for byte as encoding/json would: inside wasm the SDK's reflection
// costs several times a hand-written encoder, and an answer over the
// structured cap is measured item by item before it is cut (cutToFit). A
// document outline of a few thousand lines is hundreds of kilobytes before
// its cut. TestAnswersAppendJSON holds each writer to encoding/json.

// structuredReserve is room kept under maxStructured for the fields an
// answer sets after its items are cut: truncated, counts.
const structuredReserve = 64

// cutToFit returns how many of n items an answer keeps so that its
// structured content stays within maxStructured, and whether that is fewer
// than n. frame is the size of the answer's JSON with no items; item
// appends item i's JSON to b. Items are written once each, and none after
// the first that does not fit.
func cutToFit(frame, n int, item func(b []byte, i int) []byte) (keep int, cut bool) {
	budget := maxStructured - structuredReserve - frame
	var scratch []byte
	size := 0
	for i := range n {
		scratch = item(scratch[:0], i)
		add := len(scratch)
		if i > 0 {
			add++ // the comma
		}
		if size+add > budget {
			return i, true
		}
		size += add
	}
	return n, false
}

// frameSize is the size of v's JSON when its items are empty: v is the
// answer with an empty item list.
func frameSize(v juju.JSONAppender) int {
	b, _ := v.AppendJSON(nil)
	return len(b)
}

func appendString(b []byte, key, s string) []byte {
	return juju.AppendJSONString(append(b, key...), s)
}

// appendOptString appends key and s unless s is empty (omitempty).
func appendOptString(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return appendString(b, key, s)
}

func appendInt(b []byte, key string, n int) []byte {
	return strconv.AppendInt(append(b, key...), int64(n), 10)
}

// appendOptInt appends key and n unless n is 0 (omitempty).
func appendOptInt(b []byte, key string, n int) []byte {
	if n == 0 {
		return b
	}
	return appendInt(b, key, n)
}

// appendOptTrue appends key and true when v is (omitempty).
func appendOptTrue(b []byte, key string, v bool) []byte {
	if !v {
		return b
	}
	return append(append(b, key...), "true"...)
}

// appendList appends n items as a JSON array, or null for a nil list, as
// encoding/json writes a slice.
func appendList(b []byte, isNil bool, n int, item func(b []byte, i int) []byte) []byte {
	if isNil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = item(b, i)
	}
	return append(b, ']')
}

func appendLocation(b []byte, l *Location) []byte {
	b = appendString(b, `{"path":`, l.Path)
	b = appendInt(b, `,"line":`, l.Line)
	b = appendOptInt(b, `,"column":`, l.Column)
	b = appendOptInt(b, `,"endLine":`, l.EndLine)
	b = appendOptInt(b, `,"endColumn":`, l.EndColumn)
	b = appendOptString(b, `,"text":`, l.Text)
	b = appendOptTrue(b, `,"outside":`, l.Outside)
	return append(b, '}')
}

// AppendJSON writes the answer as encoding/json would.
func (r *LocationsResult) AppendJSON(b []byte) ([]byte, bool) {
	b = appendString(b, `{"source":`, r.Source)
	b = appendOptString(b, `,"server":`, r.Server)
	b = appendOptString(b, `,"symbol":`, r.Symbol)
	b = appendList(append(b, `,"locations":`...), r.Locations == nil, len(r.Locations), r.location)
	b = appendOptTrue(b, `,"truncated":`, r.Truncated)
	b = appendOptString(b, `,"note":`, r.Note)
	return append(b, '}'), true
}

func (r *LocationsResult) location(b []byte, i int) []byte { return appendLocation(b, &r.Locations[i]) }

// fit cuts the locations to the structured cap; it reports whether it cut.
func (r *LocationsResult) fit() bool {
	empty := *r
	empty.Locations = []Location{}
	n, cut := cutToFit(frameSize(&empty), len(r.Locations), r.location)
	r.Locations = r.Locations[:n]
	return cut
}

func appendSymbol(b []byte, s *Symbol) []byte {
	b = appendString(b, `{"name":`, s.Name)
	b = appendOptString(b, `,"namePath":`, s.NamePath)
	b = appendString(b, `,"kind":`, s.Kind)
	b = appendOptString(b, `,"detail":`, s.Detail)
	b = appendOptString(b, `,"container":`, s.Container)
	b = appendString(b, `,"path":`, s.Path)
	b = appendInt(b, `,"line":`, s.Line)
	b = appendOptInt(b, `,"column":`, s.Column)
	b = appendOptInt(b, `,"endLine":`, s.EndLine)
	b = appendOptInt(b, `,"endColumn":`, s.EndColumn)
	b = appendOptString(b, `,"text":`, s.Text)
	b = appendOptTrue(b, `,"outside":`, s.Outside)
	return append(b, '}')
}

// AppendJSON writes the answer as encoding/json would.
func (r *SymbolsResult) AppendJSON(b []byte) ([]byte, bool) {
	b = appendString(b, `{"source":`, r.Source)
	b = appendOptString(b, `,"server":`, r.Server)
	b = appendList(append(b, `,"symbols":`...), r.Symbols == nil, len(r.Symbols), r.symbol)
	b = appendOptTrue(b, `,"truncated":`, r.Truncated)
	b = appendOptString(b, `,"note":`, r.Note)
	return append(b, '}'), true
}

func (r *SymbolsResult) symbol(b []byte, i int) []byte { return appendSymbol(b, &r.Symbols[i]) }

// fit cuts the symbols to the structured cap; it reports whether it cut.
func (r *SymbolsResult) fit() bool {
	empty := *r
	empty.Symbols = []Symbol{}
	n, cut := cutToFit(frameSize(&empty), len(r.Symbols), r.symbol)
	r.Symbols = r.Symbols[:n]
	return cut
}

// appendTree writes s and its children; ok is false when a child is not a
// TreeSymbol (the SDK's encoder then writes the answer).
func appendTree(b []byte, s *TreeSymbol) ([]byte, bool) {
	b = appendString(b, `{"name":`, s.Name)
	b = appendString(b, `,"kind":`, s.Kind)
	b = appendOptString(b, `,"detail":`, s.Detail)
	b = appendInt(b, `,"line":`, s.Line)
	b = appendOptInt(b, `,"column":`, s.Column)
	b = appendOptInt(b, `,"endLine":`, s.EndLine)
	b = appendOptInt(b, `,"endColumn":`, s.EndColumn)
	if len(s.Children) > 0 {
		b = append(b, `,"children":[`...)
		for i, c := range s.Children {
			t, is := c.(TreeSymbol)
			if !is {
				return b, false
			}
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendTree(b, &t); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	}
	return append(b, '}'), true
}

// AppendJSON writes the answer as encoding/json would.
func (r *DocumentSymbolsResult) AppendJSON(b []byte) ([]byte, bool) {
	b = appendString(b, `{"source":`, r.Source)
	b = appendOptString(b, `,"server":`, r.Server)
	b = appendString(b, `,"path":`, r.Path)
	if r.Symbols == nil {
		b = append(b, `,"symbols":null`...)
	} else {
		b = append(b, `,"symbols":[`...)
		for i := range r.Symbols {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendTree(b, &r.Symbols[i]); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	}
	b = appendInt(b, `,"count":`, r.Count)
	b = appendOptTrue(b, `,"truncated":`, r.Truncated)
	b = appendOptString(b, `,"note":`, r.Note)
	return append(b, '}'), true
}

// fit cuts the top-level symbols to the structured cap; it reports whether
// it cut.
func (r *DocumentSymbolsResult) fit() bool {
	empty := *r
	empty.Symbols = []TreeSymbol{}
	n, cut := cutToFit(frameSize(&empty), len(r.Symbols), func(b []byte, i int) []byte {
		if t, ok := appendTree(b, &r.Symbols[i]); ok {
			return t
		}
		raw, _ := juju.Marshal(r.Symbols[i]) // a child that is not a TreeSymbol
		return append(b, raw...)
	})
	r.Symbols = r.Symbols[:n]
	return cut
}

func appendDiagnostic(b []byte, d *Diagnostic) []byte {
	b = appendString(b, `{"path":`, d.Path)
	b = appendString(b, `,"severity":`, d.Severity)
	b = appendOptString(b, `,"code":`, d.Code)
	b = appendOptString(b, `,"source":`, d.Source)
	b = appendString(b, `,"message":`, d.Message)
	b = appendInt(b, `,"line":`, d.Line)
	b = appendInt(b, `,"column":`, d.Column)
	b = appendInt(b, `,"endLine":`, d.EndLine)
	b = appendInt(b, `,"endColumn":`, d.EndColumn)
	return append(b, '}')
}

// AppendJSON writes the answer as encoding/json would.
func (r *DiagnosticsResult) AppendJSON(b []byte) ([]byte, bool) {
	b = appendString(b, `{"source":`, r.Source)
	b = appendOptString(b, `,"server":`, r.Server)
	b = appendOptTrue(b, `,"pulled":`, r.Pulled)
	b = appendList(append(b, `,"diagnostics":`...), r.Diagnostics == nil, len(r.Diagnostics), r.diagnostic)
	b = appendInt(b, `,"errors":`, r.Errors)
	b = appendInt(b, `,"warnings":`, r.Warnings)
	b = appendOptTrue(b, `,"truncated":`, r.Truncated)
	b = appendOptString(b, `,"note":`, r.Note)
	return append(b, '}'), true
}

func (r *DiagnosticsResult) diagnostic(b []byte, i int) []byte {
	return appendDiagnostic(b, &r.Diagnostics[i])
}

// fit cuts the diagnostics to the structured cap; it reports whether it
// cut.
func (r *DiagnosticsResult) fit() bool {
	empty := *r
	empty.Diagnostics = []Diagnostic{}
	n, cut := cutToFit(frameSize(&empty), len(r.Diagnostics), r.diagnostic)
	r.Diagnostics = r.Diagnostics[:n]
	return cut
}
