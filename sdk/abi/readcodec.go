package abi

import "strconv"

// fs.read is the host function every read_file makes and read_files makes
// once per file (inside one fs.reads). The host decoded its request with a
// strict encoding/json Decoder and encoded its answer with json.Marshal:
// about a tenth of the host's own share of a tiny read_file. These read
// and write the two field by field.

// DecodeReadRequest decodes a ReadRequest header into r, which must be
// zero, as a strict decoder (unknown fields refused, nothing after the
// value) would, and reports whether it could. It declines, leaving r to be
// thrown away, whatever it does not read exactly as encoding/json does: a
// key that is not one of ReadRequest's (or only matches one
// case-insensitively), a key given twice, a null, a number that is not an
// integer or does not fit, a string with a surrogate escape or invalid
// UTF-8, anything after the object. The caller then decodes the usual way,
// which also says what was wrong. FuzzDecodeReadRequest holds the two to
// the same results.
func DecodeReadRequest(b []byte, r *ReadRequest) bool {
	d := resultDecoder{b: b}
	return d.readRequest(r) && skipSpace(d.b, d.i) == len(d.b)
}

// DecodeReadsRequest is DecodeReadRequest for a ReadsRequest.
func DecodeReadsRequest(b []byte, r *ReadsRequest) bool {
	d := resultDecoder{b: b}
	seen := false
	ok := d.object(func(key []byte) bool {
		if string(key) != "reads" || !once(&seen) {
			return false
		}
		return d.array(func() bool {
			r.Reads = append(r.Reads, ReadRequest{})
			return d.readRequest(&r.Reads[len(r.Reads)-1])
		}, func() { r.Reads = []ReadRequest{} })
	})
	return ok && skipSpace(d.b, d.i) == len(d.b)
}

// readRequest reads one ReadRequest object.
func (d *resultDecoder) readRequest(r *ReadRequest) bool {
	var seen [8]bool
	return d.object(func(key []byte) bool {
		switch string(key) {
		case "path":
			return once(&seen[0]) && d.str(&r.Path)
		case "offset":
			return once(&seen[1]) && d.int64(&r.Offset)
		case "length":
			return once(&seen[2]) && d.int64(&r.Length)
		case "line":
			return once(&seen[3]) && d.int(&r.Line)
		case "lines":
			return once(&seen[4]) && d.int(&r.Lines)
		case "maxBytes":
			return once(&seen[5]) && d.int64(&r.MaxBytes)
		case "binary":
			return once(&seen[6]) && d.bool(&r.Binary)
		case "hash":
			return once(&seen[7]) && d.bool(&r.Hash)
		}
		return false
	})
}

// int64 reads an integer: -?(0|[1-9][0-9]*), within int64.
func (d *resultDecoder) int64(n *int64) bool {
	v, ok := d.integer(64)
	*n = v
	return ok
}

// bool reads true or false.
func (d *resultDecoder) bool(v *bool) bool {
	d.i = skipSpace(d.b, d.i)
	for _, lit := range [...]string{"true", "false"} {
		if end, ok := validLiteral(d.b, d.i, lit); ok {
			*v, d.i = lit == "true", end
			return true
		}
	}
	return false
}

// AppendReadResult appends r's JSON, byte for byte as json.Marshal writes
// it, and reports true; a result carrying an error is left to
// json.Marshal (false, b unchanged). FuzzAppendReadResult holds it to
// json.Marshal.
func AppendReadResult(b []byte, r *ReadResult) ([]byte, bool) {
	if r.Error != nil {
		return b, false
	}
	b = AppendJSONString(append(b, `{"path":`...), r.Path, true)
	b = strconv.AppendInt(append(b, `,"size":`...), r.Size, 10)
	b = AppendJSONString(append(b, `,"modTime":`...), r.ModTime, true)
	if r.Binary {
		b = append(b, `,"binary":true`...)
	}
	if r.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	b = appendOmitInt(b, `,"firstLine":`, int64(r.FirstLine))
	b = appendOmitInt(b, `,"lineCount":`, int64(r.LineCount))
	b = appendOmitInt(b, `,"totalLines":`, int64(r.TotalLines))
	b = appendOmitInt(b, `,"startOffset":`, r.StartOffset)
	if r.SHA256 != "" {
		b = AppendJSONString(append(b, `,"sha256":`...), r.SHA256, true)
	}
	if r.Encoding != "" {
		b = AppendJSONString(append(b, `,"encoding":`...), r.Encoding, true)
	}
	return append(b, '}'), true
}

// appendOmitInt appends key and n unless n is 0 (omitempty).
func appendOmitInt(b []byte, key string, n int64) []byte {
	if n == 0 {
		return b
	}
	return strconv.AppendInt(append(b, key...), n, 10)
}

// DecodeLSPRequest is DecodeReadRequest for an LSPRequest: every semantic
// tool's request to the host.
func DecodeLSPRequest(b []byte, r *LSPRequest) bool {
	d := resultDecoder{b: b}
	var seen [7]bool
	ok := d.object(func(key []byte) bool {
		switch string(key) {
		case "op":
			return once(&seen[0]) && d.str(&r.Op)
		case "path":
			return once(&seen[1]) && d.str(&r.Path)
		case "line":
			return once(&seen[2]) && d.int(&r.Line)
		case "column":
			return once(&seen[3]) && d.int(&r.Column)
		case "query":
			return once(&seen[4]) && d.str(&r.Query)
		case "includeDeclaration":
			return once(&seen[5]) && d.bool(&r.IncludeDeclaration)
		case "maxResults":
			return once(&seen[6]) && d.int(&r.MaxResults)
		}
		return false
	})
	return ok && skipSpace(d.b, d.i) == len(d.b)
}
