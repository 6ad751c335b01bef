package abi

import "strconv"

// DecodeCallResult decodes the header of a juju_call result into r, a zero
// CallResult, as json.Unmarshal would, and reports whether it could. It
// reads the shapes the SDK writes, looking at the bytes themselves; it
// declines, leaving r to be thrown away, whatever it does not read exactly
// as encoding/json does: a key that is not one of CallResult's (or only
// matches one case-insensitively), a key given twice, a null, base64 data,
// a \u escape of a surrogate, invalid UTF-8, a number that is not an
// integer. The caller then decodes with encoding/json. The host decodes
// every call's result header: with encoding/json that was about 4 µs of a
// 25 µs call of the echo plugin (FuzzDecodeCallResult holds the two to the
// same results).
func DecodeCallResult(b []byte, r *CallResult) bool {
	d := resultDecoder{b: b}
	var seen [5]bool
	ok := d.object(func(key []byte) bool {
		switch k := string(key); k {
		case "content":
			return once(&seen[0]) && d.array(func() bool {
				r.Content = append(r.Content, Content{})
				return d.content(&r.Content[len(r.Content)-1])
			}, func() { r.Content = []Content{} })
		case "structured":
			start := skipSpace(d.b, d.i)
			end, ok := validValue(d.b, start, 1)
			if !once(&seen[1]) || !ok || d.b[start] == 'n' { // a null is left to encoding/json
				return false
			}
			d.i = end
			r.Structured = append([]byte(nil), d.b[start:end]...)
			return true
		case "structuredSpan":
			r.StructuredSpan = &Span{}
			return once(&seen[2]) && d.span(r.StructuredSpan, nil)
		case "splices":
			return once(&seen[3]) && d.array(func() bool {
				r.Splices = append(r.Splices, Splice{})
				s := &r.Splices[len(r.Splices)-1]
				return d.span(&s.Span, &s.At)
			}, func() { r.Splices = []Splice{} })
		case "error":
			r.Error = &Error{}
			var code, message bool
			return once(&seen[4]) && d.object(func(key []byte) bool {
				switch string(key) {
				case "code":
					return once(&code) && d.str((*string)(&r.Error.Code))
				case "message":
					return once(&message) && d.str(&r.Error.Message)
				}
				return false
			})
		}
		return false
	})
	return ok && skipSpace(d.b, d.i) == len(d.b)
}

// once marks a key as seen and reports whether it was not before.
func once(seen *bool) bool {
	if *seen {
		return false
	}
	*seen = true
	return true
}

// resultDecoder reads b from i; each method reads one value, after white
// space, and returns false to decline.
type resultDecoder struct {
	b []byte
	i int
}

// at skips white space and reports whether the next byte is c, taking it.
func (d *resultDecoder) at(c byte) bool {
	d.i = skipSpace(d.b, d.i)
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// object reads an object, calling member with each key (its raw bytes,
// without escapes) and d at the member's value, which member must read.
func (d *resultDecoder) object(member func(key []byte) bool) bool {
	if !d.at('{') {
		return false
	}
	if d.at('}') {
		return true
	}
	for {
		d.i = skipSpace(d.b, d.i)
		if d.i >= len(d.b) || d.b[d.i] != '"' {
			return false
		}
		start := d.i + 1
		end, ok := validString(d.b, d.i)
		if !ok {
			return false
		}
		key := d.b[start : end-1]
		for _, c := range key {
			if c == '\\' {
				return false
			}
		}
		d.i = end
		if !d.at(':') || !member(key) {
			return false
		}
		if d.at('}') {
			return true
		}
		if !d.at(',') {
			return false
		}
	}
}

// array reads an array, calling elem with d at each element; empty runs
// for an array without elements (encoding/json leaves an empty slice).
func (d *resultDecoder) array(elem func() bool, empty func()) bool {
	if !d.at('[') {
		return false
	}
	if d.at(']') {
		empty()
		return true
	}
	for {
		if !elem() {
			return false
		}
		if d.at(']') {
			return true
		}
		if !d.at(',') {
			return false
		}
	}
}

// content reads one content item.
func (d *resultDecoder) content(c *Content) bool {
	var seen [5]bool
	return d.object(func(key []byte) bool {
		switch string(key) {
		case "type":
			return once(&seen[0]) && d.str(&c.Type)
		case "text":
			return once(&seen[1]) && d.str(&c.Text)
		case "mimeType":
			return once(&seen[2]) && d.str(&c.MimeType)
		case "textSpan":
			c.TextSpan = &Span{}
			return once(&seen[3]) && d.span(c.TextSpan, nil)
		case "dataSpan":
			c.DataSpan = &Span{}
			return once(&seen[4]) && d.span(c.DataSpan, nil)
		}
		return false
	})
}

// span reads a Span, or a Splice when at is not nil.
func (d *resultDecoder) span(s *Span, at *int) bool {
	var seen [3]bool
	return d.object(func(key []byte) bool {
		switch string(key) {
		case "off":
			return once(&seen[0]) && d.int(&s.Off)
		case "len":
			return once(&seen[1]) && d.int(&s.Len)
		case "at":
			return at != nil && once(&seen[2]) && d.int(at)
		}
		return false
	})
}

// int reads an integer that fits an int: -?(0|[1-9][0-9]*).
func (d *resultDecoder) int(n *int) bool {
	v, ok := d.integer(strconv.IntSize)
	*n = int(v)
	return ok
}

// integer reads an integer that fits in bits bits: -?(0|[1-9][0-9]*).
func (d *resultDecoder) integer(bits int) (int64, bool) {
	d.i = skipSpace(d.b, d.i)
	start := d.i
	if d.i < len(d.b) && d.b[d.i] == '-' {
		d.i++
	}
	digits := d.i
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		d.i++
	}
	if d.i == digits || d.b[digits] == '0' && d.i-digits > 1 {
		return 0, false
	}
	if d.i < len(d.b) {
		switch d.b[d.i] {
		case '.', 'e', 'E':
			return 0, false
		}
	}
	v, err := strconv.ParseInt(string(d.b[start:d.i]), 10, bits)
	return v, err == nil
}

// str reads a string (ReadJSONString).
func (d *resultDecoder) str(s *string) bool {
	d.i = skipSpace(d.b, d.i)
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return false
	}
	v, end, ok := ReadJSONString(d.b, d.i)
	*s, d.i = v, end
	return ok
}
