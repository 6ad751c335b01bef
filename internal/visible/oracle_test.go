package visible

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// oracleArgs is Args as it was written first, on a tree encoding/json
// decodes: the reference the direct rendering must equal, byte for byte.
func oracleArgs(raw []byte, lim Limits) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "{}"
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			err = errors.New("data after the JSON value")
		}
	}
	var b strings.Builder
	if err != nil {
		b.WriteString(notJSON)
		writeString(&b, string(raw), lim)
	} else {
		oracleValue(&b, v, lim)
	}
	s := b.String()
	if lim.Total > 0 {
		s, _ = Clip(s, lim.Total)
	}
	return s
}

var oraclePlainKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func oracleValue(b *strings.Builder, v any, lim Limits) {
	if lim.Total > 0 && b.Len() > 4*lim.Total {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			if oraclePlainKey.MatchString(k) {
				b.WriteString(k)
			} else {
				b.WriteString(Quote(k))
			}
			b.WriteString(": ")
			oracleValue(b, x[k], lim)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			if lim.List > 0 && i == lim.List {
				b.WriteString(Ellipsis + " " + strconv.Itoa(len(x)-i) + " more")
				break
			}
			oracleValue(b, e, lim)
		}
		b.WriteByte(']')
	case string:
		writeString(b, x, lim)
	case json.Number:
		b.WriteString(x.String())
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case nil:
		b.WriteString("null")
	}
}

var oracleLimits = []Limits{{}, {String: 80, List: 8, Total: 400}, {String: 3, List: 1, Total: 12}, {Total: 5}}

var oracleSeeds = []string{
	``, ` `, `{}`, `[]`, `{"a":1}`, ` {"b" : [1, 2.50, -3e7, true, false, null] , "a":"x"} `,
	`{"a":1,"a":2}`, `{"b":{"z":1,"z":{"y":[]}},"a":[{"k":"v"},{}]}`,
	`{"path":"ctl\u0001\u001b[31m.txt\u202e"}`, `{"s":"\ud83d\ude00 \ud800 \\\/\b\f\n\r\t\""}`,
	"{\"bad\":\"\xff\xfe\"}", "{\"k\xff\":1}", `{"":1,"1a":2,"_":3,"a-b":4,"é":5}`,
	`"top"`, `12345678901234567890`, `[1,2,3,4,5,6,7,8,9,10]`, `[[1,2],[3,[4,[5]]]]`,
	`{"a":1} x`, `{"a":1}{}`, `{`, `{"a":}`, `[1,]`, `nul`, "\x1b[2J",
	`{"content":"` + strings.Repeat("x", 5000) + `"}`,
	`{"command":"a` + strings.Repeat(" ", 50) + `b"}`,
	strings.Repeat("[", 100) + strings.Repeat("]", 100),
}

// Past encoding/json's nesting bound (10000) the text is not JSON for
// either.
var deepSeeds = []string{
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
}

// The direct rendering is the decoded one, on the seeds and with every
// limit.
func TestArgsIsOracle(t *testing.T) {
	for _, s := range append(oracleSeeds, deepSeeds...) {
		for _, lim := range oracleLimits {
			if got, want := Args([]byte(s), lim), oracleArgs([]byte(s), lim); got != want {
				t.Errorf("Args(%.60q, %+v)\n got %q\nwant %q", s, lim, got, want)
			}
		}
	}
}

// FuzzArgs compares the direct rendering with the decoded one on any
// bytes: the audit, the prompts and the approvals list show arguments
// through it, and a hostile client chooses them.
func FuzzArgs(f *testing.F) {
	for _, s := range oracleSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, lim := range oracleLimits {
			if got, want := Args(raw, lim), oracleArgs(raw, lim); got != want {
				t.Fatalf("Args(%q, %+v)\n got %q\nwant %q", raw, lim, got, want)
			}
		}
	})
}

// BenchmarkArgs renders a tiny call's arguments, as every audited call
// does: directly, and through the decoded tree it replaced.
func BenchmarkArgs(b *testing.B) {
	raw := []byte(`{"path":"src/tiny.go","limit":20,"offset":1}`)
	lim := Limits{String: 80, List: 8, Total: 400}
	for name, f := range map[string]func([]byte, Limits) string{"direct": Args, "decoded": oracleArgs} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				f(raw, lim)
			}
		})
	}
}

// A hostile client chooses the arguments every call's audit line renders:
// rendering must stay linear in their size, however they nest. Here 5000
// objects deep around a 1 MB string: a renderer that looked ahead for each
// member's end, once per level, scanned 5 GB (seconds, against json.Valid's
// milliseconds on the same text, some 2,000 times as long). The bound,
// two hundred times json.Valid's time (the best of five each, measured
// side by side), holds under the race detector and a loaded machine, where
// the work is a few times json.Valid's and, with every core busy, was seen
// at 88 times.
func TestArgsLinear(t *testing.T) {
	raw := []byte(strings.Repeat(`{"a":`, 5000) + `"` + strings.Repeat("x", 1<<20) + `"` + strings.Repeat("}", 5000))
	best := func(f func()) time.Duration {
		d := time.Duration(1 << 62)
		for range 5 {
			start := time.Now()
			f()
			d = min(d, time.Since(start))
		}
		return d
	}
	valid := best(func() { json.Valid(raw) })
	for _, lim := range []Limits{{String: 80, List: 8, Total: 400}, {}} {
		var got string
		d := best(func() { got = Args(raw, lim) })
		t.Logf("%+v: %v, json.Valid %v (%.1fx)", lim, d, valid, float64(d)/float64(valid))
		if d > 200*valid {
			t.Errorf("Args of %d bytes nested 5000 deep with %+v took %v, json.Valid %v", len(raw), lim, d, valid)
		}
		if !strings.HasPrefix(got, "{a: {a: {a: ") {
			t.Errorf("rendering starts %.40q", got)
		}
	}
}

// The elements of an array past the limit are counted, not kept: the
// audit's rendering of an array of 131,072 small objects allocates what
// its first eight need, under a megabyte (a tree of every element took
// 159 MB).
func TestArgsLongArrayKeepsNothing(t *testing.T) {
	raw := []byte("[" + strings.Repeat(`{"a":[1,"x"]},`, 1<<17) + "0]")
	lim := Limits{String: 80, List: 8, Total: 400}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := Args(raw, lim)
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("rendering %d bytes allocated %d bytes", len(raw), n)
	}
	if want := oracleArgs(raw, lim); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
