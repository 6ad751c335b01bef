package audit

import (
	"encoding/json"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// appendRecord appends r as one JSON object, byte for byte what
// json.Marshal writes, without reflection: every call is audited, and
// json.Marshal of a record was a few per cent of a tiny read_file. The rare
// record with an approval or fetches, or with a time that is not UTC or
// that json.Marshal refuses, goes through json.Marshal.
func appendRecord(b []byte, r *Record) ([]byte, error) {
	if r.Approval != nil || len(r.Fetches) > 0 || r.Time.Location() != time.UTC || r.Time.Year() < 0 || r.Time.Year() > 9999 ||
		math.IsInf(r.DurationMs, 0) || math.IsNaN(r.DurationMs) {
		out, err := json.Marshal(r)
		return append(b, out...), err
	}
	b = append(b, `{"time":"`...)
	b = r.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","callId":`...)
	b = appendString(b, r.CallID)
	if r.Client != "" {
		b = append(b, `,"client":`...)
		b = appendString(b, r.Client)
	}
	b = append(b, `,"plugin":`...)
	b = appendString(b, r.Plugin)
	b = append(b, `,"tool":`...)
	b = appendString(b, r.Tool)
	b = append(b, `,"tier":`...)
	b = appendString(b, r.Tier)
	b = append(b, `,"args":`...)
	b = appendString(b, r.Args)
	b = append(b, `,"outcome":`...)
	b = appendString(b, r.Outcome)
	b = append(b, `,"durationMs":`...)
	b = appendFloat(b, r.DurationMs)
	return append(b, '}'), nil
}

// appendString writes s as encoding/json does: quoted, with <, > and &
// escaped for HTML, U+2028 and U+2029 escaped, and each invalid byte as
// U+FFFD.
func appendString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendFloat writes f as encoding/json writes a float64.
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
