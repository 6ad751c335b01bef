package juju

import (
	"encoding/json"

	"github.com/jujutools/juju/sdk/abi"
)

// Result is what a tool returns on success: content for the model (text,
// images) and, optionally, structured content described by the tool's
// output schema.
type Result struct {
	content    []abi.Content
	structured any
}

// Text returns a result holding one text item.
func Text(s string) *Result { return new(Result).AddText(s) }

// Image returns a result holding one image item; mimeType is e.g. "image/png".
func Image(data []byte, mimeType string) *Result { return new(Result).AddImage(data, mimeType) }

// AddText appends a text item and returns r.
func (r *Result) AddText(s string) *Result {
	r.content = append(r.content, abi.Content{Type: "text", Text: s})
	return r
}

// AddImage appends an image item and returns r.
func (r *Result) AddImage(data []byte, mimeType string) *Result {
	r.content = append(r.content, abi.Content{Type: "image", Data: data, MimeType: mimeType})
	return r
}

// WithStructured sets the structured content and returns r. v must be of the
// tool's Output type (or a pointer to it) when the tool declares one.
func (r *Result) WithStructured(v any) *Result {
	r.structured = v
	return r
}

// JSONAppender is implemented by an Output type that writes its own JSON:
// inside wasm every byte the SDK's encoder looks at costs a call out of the
// guest, and a type that knows its strings need no escaping (as
// ListDirPlain says of a listing's) can copy them instead. AppendJSON
// appends the value's JSON to b exactly as encoding/json would write it,
// or returns false to leave the encoding to the SDK. The host checks the
// JSON it gets.
type JSONAppender interface {
	AppendJSON(b []byte) ([]byte, bool)
}

// Marshal returns v's JSON exactly as encoding/json's Marshal writes it,
// through the SDK's own encoder where it can (the one results go through):
// inside wasm encoding/json's reflection costs a deadline check per call
// and loop turn, several times the SDK's.
func Marshal(v any) ([]byte, error) {
	if b, ok := marshalFast(v); ok {
		return b, nil
	}
	return json.Marshal(v)
}

// AppendJSONString appends s as a JSON string, byte for byte as
// encoding/json's Marshal writes it (<, > and & escaped, invalid UTF-8 as
// U+FFFD), looking at eight bytes at a time where it can: what an
// AppendJSON method writes a string with.
func AppendJSONString(b []byte, s string) []byte { return abi.AppendJSONString(b, s, true) }
