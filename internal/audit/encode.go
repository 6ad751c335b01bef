package audit

import (
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// appendRecord appends r as one JSON object, byte for byte what
// json.Marshal writes, without reflection: every call is audited, and
// json.Marshal of a record was a few per cent of a tiny read_file. The rare
// record with an approval or fetches, or with a time that is not UTC or
// that json.Marshal refuses, goes through json.Marshal.
func appendRecord(b []byte, r *Record) ([]byte, error) {
	if r.Approval != nil || len(r.Fetches) > 0 || r.FetchesDropped != nil || r.Time.Location() != time.UTC || r.Time.Year() < 0 || r.Time.Year() > 9999 ||
		math.IsInf(r.DurationMs, 0) || math.IsNaN(r.DurationMs) {
		out, err := json.Marshal(r)
		return append(b, out...), err
	}
	b = append(b, `{"time":"`...)
	b = r.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","callId":`...)
	b = abi.AppendJSONString(b, r.CallID, true)
	if r.Client != "" {
		b = append(b, `,"client":`...)
		b = abi.AppendJSONString(b, r.Client, true)
	}
	b = append(b, `,"plugin":`...)
	b = abi.AppendJSONString(b, r.Plugin, true)
	b = append(b, `,"tool":`...)
	b = abi.AppendJSONString(b, r.Tool, true)
	b = append(b, `,"tier":`...)
	b = abi.AppendJSONString(b, r.Tier, true)
	b = append(b, `,"args":`...)
	b = abi.AppendJSONString(b, r.Args, true)
	b = append(b, `,"outcome":`...)
	b = abi.AppendJSONString(b, r.Outcome, true)
	b = append(b, `,"durationMs":`...)
	b = appendFloat(b, r.DurationMs)
	return append(b, '}'), nil
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
