package abi

import (
	"encoding/json"
	"errors"
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
func (r *CallResult) Resolve(body []byte) error {
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
	n := len(r.Structured)
	for _, s := range r.Splices {
		n += s.Len + s.Len/8 // the escapes of a typical text
	}
	out := make([]byte, 0, n)
	last := 0
	for _, s := range r.Splices {
		b, ok := s.in(body)
		if !ok || s.At < last || !starts[s.At] {
			return ErrSpan
		}
		out = append(out, r.Structured[last:s.At]...)
		q, err := json.Marshal(string(b))
		if err != nil {
			return err
		}
		out = append(out, q...)
		last = s.At + 2
	}
	r.Structured = append(out, r.Structured[last:]...)
	r.Splices = nil
	return nil
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
