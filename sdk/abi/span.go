package abi

import (
	"errors"
	"math"
)

// A result's bulk bytes, in ABI 2, travel raw in the body of its frame:
// a long text is not escaped into JSON, an image not base64-encoded, and
// a string used both as text and in structured content is sent once. The
// guest (wasm, where every byte it looks at costs) only points at the
// bytes; the host, native, escapes them where JSON needs them.

// Span is the bytes [Off, Off+Len) of a frame's body.
type Span struct {
	Off int `json:"off"`
	Len int `json:"len"`
}

// Splice stands for one string of a result's structured content: At is the
// byte offset, in Structured as the header holds it, of an empty string
// ("") that is to become the bytes of the Span as a JSON string.
type Splice struct {
	At int `json:"at"`
	Span
}

// ErrSpan reports a span or splice that does not fit the frame: outside
// the body, not at an empty string, or out of order.
var ErrSpan = errors.New("abi: a span or splice does not fit the result")

// ErrSpanRepeat reports spans that name the body's bytes more than
// maxSpanRepeat times in all, or more than MaxResolved bytes: resolving
// them would take the host's memory, not the plugin's. (A text sent once
// for the text and the structured content is named twice.)
var ErrSpanRepeat = errors.New("abi: a result's spans repeat its body more than the host resolves")

// maxSpanRepeat is how many times, in all, a result's spans may name
// its body's bytes, and MaxResolved the most bytes they may name.
const (
	maxSpanRepeat = 2
	MaxResolved   = 64 << 20
)

// in returns the span's bytes, or false when they are not all in body.
func (s *Span) in(body []byte) ([]byte, bool) {
	if s.Off < 0 || s.Len < 0 || s.Off > len(body) || s.Len > len(body)-s.Off {
		return nil, false
	}
	return body[s.Off : s.Off+s.Len], true
}

// Resolve fills in what r keeps in its frame's body: each content item's
// TextSpan or DataSpan becomes its Text or Data, a StructuredSpan becomes
// Structured (which then aliases body) once it is checked to be one JSON
// value, and each splice's empty string in Structured becomes the span's
// bytes as a JSON string, escaped as encoding/json escapes a string.
// Afterwards r holds no span or splice. A result without spans needs no
// body. An inline Structured must be valid JSON (as it is when r was
// decoded by encoding/json), the splices in increasing order of At, each
// at a string token `""` of it.
//
// Splices that would make the structured content longer than MaxStructured
// bytes, which no client gets, are not resolved: Structured becomes its
// shape (CutStructured), whose members are built only up to a kilobyte.
// Escaping is what costs: a span of control bytes is six times longer as
// a JSON string, and two splices of one 30 MiB body took the host 23 s and
// 1.2 GB to build and then cut (TestResolveCutsSplicesBeforeBuilding).
func (r *CallResult) Resolve(body []byte) error {
	if !r.spansFit(len(body)) {
		return ErrSpanRepeat
	}
	if r.StructuredSpan != nil {
		b, ok := r.StructuredSpan.in(body)
		if !ok || len(r.Structured) > 0 || !validJSON(b) {
			return ErrSpan
		}
		r.Structured, r.StructuredSpan = b, nil
	}
	for i := range r.Content {
		c := &r.Content[i]
		if c.TextSpan != nil {
			b, ok := c.TextSpan.in(body)
			if !ok || c.Text != "" {
				return ErrSpan
			}
			c.Text, c.TextSpan = string(b), nil
		}
		if c.DataSpan != nil {
			b, ok := c.DataSpan.in(body)
			if !ok || len(c.Data) > 0 {
				return ErrSpan
			}
			c.Data, c.DataSpan = b, nil
		}
	}
	if len(r.Splices) == 0 {
		r.Splices = nil
		return nil
	}
	starts, ok := emptyStrings(r.Structured)
	if !ok {
		return ErrSpan
	}
	size, last := len(r.Structured), 0
	for _, s := range r.Splices {
		b, ok := s.in(body)
		if !ok || s.At < last || !starts[s.At] {
			return ErrSpan
		}
		size += jsonStringLen(b, true, math.MaxInt) - 2
		last = s.At + 2
	}
	if size > MaxStructured {
		r.Structured = shape(r.Structured, r.Splices, body, size)
	} else {
		r.Structured = appendResolved(make([]byte, 0, size), r.Structured, 0, r.Splices, body)
	}
	r.Splices = nil
	return nil
}

// spansFit reports whether r's spans name at most maxSpanRepeat times a
// body of n bytes (and a little more, for small results), and at most
// MaxResolved bytes. Spans out of the body are ErrSpan's, later.
func (r *CallResult) spansFit(n int) bool {
	limit := min(maxSpanRepeat*n+4096, MaxResolved)
	total := 0
	add := func(s *Span) bool {
		if s != nil && s.Len > 0 {
			if s.Len > limit-total {
				return false
			}
			total += s.Len
		}
		return true
	}
	if !add(r.StructuredSpan) {
		return false
	}
	for i := range r.Content {
		if !add(r.Content[i].TextSpan) || !add(r.Content[i].DataSpan) {
			return false
		}
	}
	for i := range r.Splices {
		if !add(&r.Splices[i].Span) {
			return false
		}
	}
	return true
}

// emptyStrings returns the offsets in js, valid JSON, at which an empty
// string token ("") starts, and false when js is not scannable.
func emptyStrings(js []byte) (map[int]bool, bool) {
	starts := map[int]bool{}
	for i := 0; i < len(js); i++ {
		if js[i] != '"' {
			continue
		}
		start := i
		for i++; i < len(js) && js[i] != '"'; i++ {
			if js[i] == '\\' {
				i++
			}
		}
		if i >= len(js) {
			return nil, false
		}
		if i == start+1 {
			starts[start] = true
		}
	}
	return starts, true
}
