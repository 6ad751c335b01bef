package abi

import (
	"bytes"
	"encoding/json"
	"math"
	"runtime"
	"strings"
	"testing"
)

// jsonStringLen counts what AppendJSONString writes, without writing it.
func TestJSONStringLenExact(t *testing.T) {
	var all []string
	for c := range 256 {
		all = append(all, string([]byte{byte(c)}), "abcdefgh"+string([]byte{byte(c)})+"ijklmnop")
	}
	all = append(all, "", "\u2028\u2029", "é✓日本", strings.Repeat("<a href=x&y>", 5), "\xed\xa0\x80", "a\xffb\xc3")
	for _, s := range all {
		for _, html := range []bool{true, false} {
			if got, want := jsonStringLen([]byte(s), html, math.MaxInt), len(AppendJSONString(nil, s, html)); got != want {
				t.Errorf("%q html=%v: %d, want %d", s, html, got, want)
			}
		}
	}
	for _, s := range []string{strings.Repeat("\x01", 1000), strings.Repeat("\x01", 90)} {
		if n := jsonStringLen([]byte(s), true, 100); n <= 100 {
			t.Errorf("%d bytes: %d, want a number past the limit 100", len(s), n)
		}
	}
}

func FuzzJSONStringLen(f *testing.F) {
	f.Add([]byte("a\x01<\u2028\xff"))
	f.Fuzz(func(t *testing.T, s []byte) {
		want := len(AppendJSONString(nil, string(s), true))
		if got := jsonStringLen(s, true, math.MaxInt); got != want {
			t.Fatalf("%q: %d, want %d", s, got, want)
		}
		if got := jsonStringLen(s, true, 10); (got > 10) != (want > 10) {
			t.Fatalf("%q with limit 10: %d, want %d", s, got, want)
		}
	})
}

// TestResolveCutsSplicesBeforeBuilding: splices that would make the
// structured content longer than a client takes are not escaped into it.
// Two splices of one body of control bytes, six times longer as JSON
// strings, made the host build and then decode hundreds of megabytes.
func TestResolveCutsSplicesBeforeBuilding(t *testing.T) {
	body := bytes.Repeat([]byte{1}, 8<<20)
	whole := Span{0, len(body)}
	res := CallResult{
		Structured: json.RawMessage(`{"a":"","b":"","n":3}`),
		Splices:    []Splice{{At: 5, Span: whole}, {At: 12, Span: whole}},
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := res.Resolve(body); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("resolving allocated %d bytes for a structured content no client gets", alloc)
	}
	var got struct {
		A, B string
		N    int
		Cut  struct{ Bytes int } `json:"jujuCut"`
	}
	if len(res.Structured) > MaxStructured || json.Unmarshal(res.Structured, &got) != nil {
		t.Fatalf("structured content of %d bytes: %.200s", len(res.Structured), res.Structured)
	}
	if want := len(`{"a":"","b":"","n":3}`) + 2*6*len(body); got.A != "" || got.B != "" || got.N != 3 || got.Cut.Bytes != want {
		t.Fatalf("cut to %s, want bytes %d", res.Structured, want)
	}
}

// A structured content cut before its splices are built has the very shape
// CutStructured gives it built: small members, spliced or not, a spliced
// key among them, kept; large ones emptied by kind or dropped.
func TestResolveCutIsCutStructured(t *testing.T) {
	long := strings.Repeat("<x>\n", 30_000)
	body := []byte("src/a.go" + "\x01é\xff" + long + "key")
	path, odd, text, key := Span{0, 8}, Span{8, 4}, Span{12, len(long)}, Span{12 + len(long), 3}
	spliced := `{"path":"","odd":"","text":"","files":[{"p":""},""],"meta":{"k":"","n":1},"":7,"big":` +
		strings.Repeat("1", 2000) + `,"total":5,"deep":{"t":""},"path":"" , "small":[1,2]}`
	at := func(from int, s string) int { return strings.Index(spliced[from:], s) + from + len(s) - 2 }
	var splices []Splice
	var ats []int
	for _, s := range []struct {
		mark string
		span Span
	}{{`"path":""`, path}, {`"odd":""`, odd}, {`"text":""`, text}, {`"p":""`, path}, {`},""`, odd}, {`"k":""`, odd}, {`,""`, key}, {`"t":""`, text}, {`"path":"" `, key}} {
		from := 0
		if len(ats) > 0 {
			from = ats[len(ats)-1] + 2
		}
		a := at(from, s.mark)
		if s.mark == `"path":"" ` {
			a--
		}
		ats = append(ats, a)
		splices = append(splices, Splice{At: a, Span: s.span})
	}
	// The whole content, resolved the slow way.
	var full []byte
	last := 0
	for _, s := range splices {
		if spliced[s.At:s.At+2] != `""` {
			t.Fatalf("the fixture's splice at %d is at %.10q", s.At, spliced[s.At:])
		}
		q, _ := json.Marshal(string(body[s.Off : s.Off+s.Len]))
		full = append(append(full, spliced[last:s.At]...), q...)
		last = s.At + 2
	}
	full = append(full, spliced[last:]...)
	if !json.Valid(full) || len(full) <= MaxStructured {
		t.Fatalf("the fixture resolves to %d bytes, valid %v", len(full), json.Valid(full))
	}
	res := CallResult{Structured: json.RawMessage(spliced), Splices: splices}
	if err := res.Resolve(body); err != nil {
		t.Fatal(err)
	}
	if want := CutStructured(full); !bytes.Equal(res.Structured, want) {
		t.Fatalf("cut before building:\n%s\nwant\n%s", res.Structured, want)
	}
	for _, kept := range []string{`"path":"key"`, `"odd":"\u0001é\ufffd"`, `"key":7`, `"meta":{"k":"\u0001é\ufffd","n":1}`, `"files":[{"p":"src/a.go"},"\u0001é\ufffd"]`, `"text":""`, `"deep":{}`, `"total":5`, `"small":[1,2]`} {
		if !strings.Contains(string(res.Structured), kept) {
			t.Errorf("%s is not in %s", kept, res.Structured)
		}
	}
	if strings.Contains(string(res.Structured), `"big"`) {
		t.Errorf("a large number kept: %s", res.Structured)
	}
}

// Within MaxStructured the splices are built as they are.
func TestResolveBuildsSplicesWithinTheCap(t *testing.T) {
	text := strings.Repeat("\x01", MaxStructured/6-10)
	res := CallResult{Structured: json.RawMessage(`{"t":""}`), Splices: []Splice{{At: 5, Span: Span{0, len(text)}}}}
	if err := res.Resolve([]byte(text)); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(map[string]string{"t": text})
	if !bytes.Equal(res.Structured, want) || len(want) > MaxStructured || cap(res.Structured) != len(want) {
		t.Fatalf("%d bytes (cap %d), want %d: %.80s", len(res.Structured), cap(res.Structured), len(want), res.Structured)
	}
}
