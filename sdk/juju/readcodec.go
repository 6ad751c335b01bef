package juju

import (
	"strconv"

	"github.com/jujutools/juju/sdk/abi"
)

// fs.read is the host function read_file and read_files call once per
// file; inside wasm its request and its answer cost more through the
// reflection-driven codec than all the rest of a small read. These write
// and read them field by field, exactly as encoding/json would; an answer
// they do not know how to read (a field they do not know, a null) is left
// to the general decoder.

// appendReadRequest appends req's JSON, as json.Marshal writes it.
func appendReadRequest(b []byte, req *abi.ReadRequest) []byte {
	b = abi.AppendJSONString(append(b, `{"path":`...), req.Path, true)
	b = appendIntField(b, `,"offset":`, req.Offset)
	b = appendIntField(b, `,"length":`, req.Length)
	b = appendIntField(b, `,"line":`, int64(req.Line))
	b = appendIntField(b, `,"lines":`, int64(req.Lines))
	b = appendIntField(b, `,"maxBytes":`, req.MaxBytes)
	if req.Binary {
		b = append(b, `,"binary":true`...)
	}
	if req.Hash {
		b = append(b, `,"hash":true`...)
	}
	return append(b, '}')
}

// appendIntField appends key and n unless n is 0 (omitempty).
func appendIntField(b []byte, key string, n int64) []byte {
	if n == 0 {
		return b
	}
	return strconv.AppendInt(append(b, key...), n, 10)
}

// decodeReadResult decodes an fs.read answer header into r, which must be
// zero, or reports false.
func decodeReadResult(data []byte, r *abi.ReadResult) bool {
	d := fastDecoder{data: data}
	ok := d.fields(func(key []byte) bool {
		switch string(key) {
		case "path":
			return d.stringField(&r.Path)
		case "modTime":
			return d.stringField(&r.ModTime)
		case "size":
			return d.int64Field(&r.Size)
		case "startOffset":
			return d.int64Field(&r.StartOffset)
		case "firstLine":
			return d.intField(&r.FirstLine)
		case "lineCount":
			return d.intField(&r.LineCount)
		case "totalLines":
			return d.intField(&r.TotalLines)
		case "binary":
			return d.boolField(&r.Binary)
		case "truncated":
			return d.boolField(&r.Truncated)
		case "sha256":
			return d.stringField(&r.SHA256)
		case "encoding":
			return d.stringField(&r.Encoding)
		case "error":
			r.Error = new(abi.Error)
			return d.errorField(r.Error)
		}
		return false
	})
	return ok && d.end()
}

// fields reads an object, calling field for each key (plain ASCII keys
// only) with d at its value, which field must read.
func (d *fastDecoder) fields(field func(key []byte) bool) bool {
	return d.members(func(key []byte, plain bool) bool { return plain && field(key) })
}

func (d *fastDecoder) stringField(s *string) bool {
	if d.next() != '"' {
		return false
	}
	v, ok := d.str()
	*s = v
	return ok
}

func (d *fastDecoder) int64Field(n *int64) bool {
	lit, integer := d.number()
	if !integer {
		return false
	}
	v, ok := parseInt(lit)
	*n = v
	return ok
}

func (d *fastDecoder) intField(n *int) bool {
	var v int64
	if !d.int64Field(&v) || int64(int(v)) != v {
		return false
	}
	*n = int(v)
	return true
}

func (d *fastDecoder) boolField(b *bool) bool {
	switch d.next() {
	case 't':
		*b = true
		return d.literal("true")
	case 'f':
		*b = false
		return d.literal("false")
	}
	return false
}

func (d *fastDecoder) errorField(e *abi.Error) bool {
	return d.nested(func() bool {
		return d.fields(func(key []byte) bool {
			switch string(key) {
			case "code":
				var c string
				ok := d.stringField(&c)
				e.Code = abi.Code(c)
				return ok
			case "message":
				return d.stringField(&e.Message)
			}
			return false
		})
	})
}
