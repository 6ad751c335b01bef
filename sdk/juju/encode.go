package juju

import (
	"encoding/base64"
	"strconv"
	"unsafe"

	"github.com/jujutools/juju/sdk/abi"
)

// spanMin is the shortest string or image a result sends raw in its
// frame's body rather than escaped in its JSON header. Inside wasm every
// byte the plugin looks at costs (wazero's termination checks run on every
// loop iteration: escaping 100 KB took milliseconds), while the host
// escapes natively; a span costs a few bytes of header.
const spanMin = 64

// structuredSpanMin is the smallest structured content a result sends in
// its frame's body rather than in its JSON header. In the header the host
// scans it twice (encoding/json checks the header, then copies the value
// out); in the body once, to check it is one JSON value. Below this the
// span's bookkeeping in the plugin costs more than the scan saves.
const structuredSpanMin = 512

// body gathers the body of an ABI 2 result frame: parts that alias the
// result's strings and byte slices, nothing copied, each string sent once
// however often the result refers to it.
type body struct {
	parts   [][]byte
	size    int
	seen    map[bodyKey]abi.Span
	splices []abi.Splice // of the structured content
}

type bodyKey struct {
	p *byte
	n int
}

// add returns the span of p in the body, adding p unless it is there.
func (b *body) add(p []byte) abi.Span {
	k := bodyKey{unsafe.SliceData(p), len(p)}
	if s, ok := b.seen[k]; ok {
		return s
	}
	s := abi.Span{Off: b.size, Len: len(p)}
	b.parts = append(b.parts, p)
	b.size += len(p)
	if b.seen == nil {
		b.seen = map[bodyKey]abi.Span{}
	}
	b.seen[k] = s
	return s
}

// addOnce adds p, which nothing else refers to, without looking for it
// first.
func (b *body) addOnce(p []byte) abi.Span {
	s := abi.Span{Off: b.size, Len: len(p)}
	b.parts = append(b.parts, p)
	b.size += len(p)
	return s
}

// addString is add for a string, without copying it.
func (b *body) addString(s string) abi.Span {
	return b.add(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// splice records that the structured content's empty string at offset at
// stands for s.
func (b *body) splice(at int, s string) {
	b.splices = append(b.splices, abi.Splice{At: at, Span: b.addString(s)})
}

// reset empties b, for a result that starts over.
func (b *body) reset() { *b = body{} }

// frame is an encoded result: the JSON header and the body's parts.
type frame struct {
	header []byte
	body   body
}

// bytes joins the frame as the host receives it.
func (f *frame) bytes() []byte {
	out := abi.EncodeFrame(f.header, nil)
	for _, p := range f.body.parts {
		out = append(out, p...)
	}
	return out
}

// encodeResult writes a CallResult's JSON header, the way encoding/json
// would (without HTML escaping), into f. Text and images of spanMin bytes
// or more go into f's body as spans, and so does a structured of
// structuredSpanMin bytes or more, already JSON (with f's splices); a
// shorter one is written into the header as it is.
func encodeResult(f *frame, res *abi.CallResult, structured []byte) {
	n := 64 + 48*len(f.body.splices)
	if len(structured) < structuredSpanMin {
		n += len(structured)
	}
	for _, c := range res.Content {
		if len(c.Text) < spanMin {
			n += len(c.Text)
		}
		n += 64
	}
	b := make([]byte, 0, n)
	b = append(b, '{')
	sep := func() {
		if len(b) > 1 {
			b = append(b, ',')
		}
	}
	if len(res.Content) > 0 {
		b = append(b, `"content":[`...)
		for i, c := range res.Content {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"type":`...)
			b = appendString(b, c.Type)
			switch {
			case len(c.Text) >= spanMin:
				b = appendSpan(append(b, `,"textSpan":`...), f.body.addString(c.Text))
			case c.Text != "":
				b = append(b, `,"text":`...)
				b = appendString(b, c.Text)
			}
			switch {
			case len(c.Data) >= spanMin:
				b = appendSpan(append(b, `,"dataSpan":`...), f.body.add(c.Data))
			case len(c.Data) > 0:
				b = append(b, `,"data":"`...)
				b = base64.StdEncoding.AppendEncode(b, c.Data)
				b = append(b, '"')
			}
			if c.MimeType != "" {
				b = append(b, `,"mimeType":`...)
				b = appendString(b, c.MimeType)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(structured) > 0 {
		sep()
		if len(structured) >= structuredSpanMin {
			b = appendSpan(append(b, `"structuredSpan":`...), f.body.addOnce(structured))
		} else {
			b = append(b, `"structured":`...)
			b = append(b, structured...)
		}
		if len(f.body.splices) > 0 {
			b = append(b, `,"splices":[`...)
			for i, s := range f.body.splices {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"at":`...)
				b = strconv.AppendInt(b, int64(s.At), 10)
				b = append(b, `,"off":`...)
				b = strconv.AppendInt(b, int64(s.Off), 10)
				b = append(b, `,"len":`...)
				b = strconv.AppendInt(b, int64(s.Len), 10)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
	}
	if e := res.Error; e != nil {
		sep()
		b = append(b, `"error":{"code":`...)
		b = appendString(b, string(e.Code))
		b = append(b, `,"message":`...)
		b = appendString(b, e.Message)
		b = append(b, '}')
	}
	f.header = append(b, '}')
}

// appendSpan appends s as JSON.
func appendSpan(b []byte, s abi.Span) []byte {
	b = append(b, `{"off":`...)
	b = strconv.AppendInt(b, int64(s.Off), 10)
	b = append(b, `,"len":`...)
	b = strconv.AppendInt(b, int64(s.Len), 10)
	return append(b, '}')
}

// appendString appends s as a JSON string, without HTML escaping.
func appendString(b []byte, s string) []byte { return abi.AppendJSONString(b, s, false) }
