package audit

import (
	"encoding/json"
	"math"
	"testing"
	"time"
)

// appendRecord writes what json.Marshal writes, for every record.
func TestAppendRecordIsMarshal(t *testing.T) {
	at := time.Date(2026, 12, 4, 19, 30, 1, 123456789, time.UTC)
	for _, r := range []Record{
		{},
		{Time: at, CallID: "c1", Client: "claude-code", Plugin: "core", Tool: "read_file", Tier: "R", Args: `{path: "a.txt"}`, Outcome: OutcomeOK, DurationMs: 0.069},
		{Time: at.Truncate(time.Second), CallID: "c2", Plugin: "p", Tool: "t", Tier: "X", Args: "<b>&\"\\\x00\x1f\x7f\b\f\n\r\t\u2028\u2029\xff\xfe é 😀", Outcome: "NOT_FOUND", DurationMs: 1e21},
		{Time: at.In(time.FixedZone("x", 3600)), DurationMs: 1e-7},
		{Time: time.Date(12000, 1, 1, 0, 0, 0, 0, time.UTC)},
		{Time: at, DurationMs: -0.0},
		{Time: at, DurationMs: math.Copysign(0, -1)},
		{Time: at, DurationMs: 123456789.5},
		{Time: at, DurationMs: 5e-324},
		{Time: at, Approval: &Approval{Via: "cli", Decision: "approved", ID: "a1"}},
		{Time: at, Fetches: []Fetch{{}}},
	} {
		want, werr := json.Marshal(&r)
		got, gerr := appendRecord(nil, &r)
		if (werr != nil) != (gerr != nil) || string(got) != string(want) {
			t.Errorf("record %+v:\n got %s (%v)\nwant %s (%v)", r, got, gerr, want, werr)
		}
	}
}

func FuzzAppendRecord(f *testing.F) {
	f.Add("c1", "claude", "core", "read_file", `{path: "a"}`, "ok", 0.5, int64(1764876601123456789))
	f.Add("<&>", "\u2028", "\xff", "\x00", "\"\\", "", 1e-7, int64(0))
	f.Add("", "", "", "", "", "", 1e21, int64(-62135596800000000))
	f.Fuzz(func(t *testing.T, id, client, plugin, tool, args, outcome string, ms float64, ns int64) {
		r := Record{Time: time.Unix(0, ns).UTC(), CallID: id, Client: client, Plugin: plugin, Tool: tool, Tier: "R", Args: args, Outcome: outcome, DurationMs: ms}
		want, werr := json.Marshal(&r)
		got, gerr := appendRecord(nil, &r)
		if (werr != nil) != (gerr != nil) || string(got) != string(want) {
			t.Fatalf("record %+v:\n got %s (%v)\nwant %s (%v)", r, got, gerr, want, werr)
		}
	})
}

func BenchmarkAppendRecord(b *testing.B) {
	r := Record{Time: time.Now().UTC(), CallID: "01JX0000000000000000000000", Client: "claude-code", Plugin: "core", Tool: "read_file", Tier: "R", Args: `{path: "src/tiny.go"}`, Outcome: OutcomeOK, DurationMs: 0.069}
	b.Run("direct", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 512)
		for b.Loop() {
			buf, _ = appendRecord(buf[:0], &r)
		}
	})
	b.Run("json.Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			json.Marshal(&r)
		}
	})
}
