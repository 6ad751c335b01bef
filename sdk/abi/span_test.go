package abi

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	body := []byte("hello <world>\n\"quoted\"\xff")
	res := CallResult{
		Content:    []Content{{Type: "text", TextSpan: &Span{0, 14}}, {Type: "image", DataSpan: &Span{14, 8}, MimeType: "image/png"}},
		Structured: json.RawMessage(`{"a":"","b":[1,""],"c":"x\"\"y","":""}`),
		Splices:    []Splice{{At: 5, Span: Span{0, 5}}, {At: 15, Span: Span{14, 9}}, {At: 35, Span: Span{0, 0}}},
	}
	if err := res.Resolve(body); err != nil {
		t.Fatal(err)
	}
	if res.Content[0].Text != "hello <world>\n" || string(res.Content[1].Data) != `"quoted"` || res.Splices != nil || res.Content[0].TextSpan != nil {
		t.Fatalf("content %+v", res.Content)
	}
	want := `{"a":"hello","b":[1,"\"quoted\"\ufffd"],"c":"x\"\"y","":""}`
	if string(res.Structured) != want {
		t.Fatalf("structured %s\nwant       %s", res.Structured, want)
	}
	if !json.Valid(res.Structured) {
		t.Fatal("invalid JSON")
	}
}

// Structured content may itself be a span of the body, which the host
// takes once it checked it is one JSON value; its splices count from its
// start, as for an inline one.
func TestResolveStructuredSpan(t *testing.T) {
	body := []byte(`xx{"a":"","n":[1,2]}hello`)
	res := CallResult{StructuredSpan: &Span{2, 18}, Splices: []Splice{{At: 5, Span: Span{20, 5}}}}
	if err := res.Resolve(body); err != nil {
		t.Fatal(err)
	}
	if want := `{"a":"hello","n":[1,2]}`; string(res.Structured) != want || res.StructuredSpan != nil || res.Splices != nil {
		t.Fatalf("structured %s, span %v, splices %v; want %s", res.Structured, res.StructuredSpan, res.Splices, want)
	}
}

func TestResolveRefusesMisfits(t *testing.T) {
	body := []byte("0123456789")
	for name, res := range map[string]CallResult{
		"text outside body":    {Content: []Content{{Type: "text", TextSpan: &Span{8, 3}}}},
		"negative":             {Content: []Content{{Type: "text", TextSpan: &Span{-1, 3}}}},
		"text and span":        {Content: []Content{{Type: "text", Text: "x", TextSpan: &Span{0, 1}}}},
		"data outside body":    {Content: []Content{{Type: "image", DataSpan: &Span{0, 11}}}},
		"splice not at string": {Structured: json.RawMessage(`{"a":1}`), Splices: []Splice{{At: 5, Span: Span{0, 1}}}},
		"splice in a string":   {Structured: json.RawMessage(`["x\"\""]`), Splices: []Splice{{At: 4, Span: Span{0, 1}}}},
		"splice not empty":     {Structured: json.RawMessage(`["ab"]`), Splices: []Splice{{At: 1, Span: Span{0, 1}}}},
		"splices out of order": {Structured: json.RawMessage(`["",""]`), Splices: []Splice{{At: 4, Span: Span{0, 1}}, {At: 1, Span: Span{0, 1}}}},
		"splice twice":         {Structured: json.RawMessage(`[""]`), Splices: []Splice{{At: 1, Span: Span{0, 1}}, {At: 1, Span: Span{0, 1}}}},
		"splice past the end":  {Structured: json.RawMessage(`[""]`), Splices: []Splice{{At: 9, Span: Span{0, 1}}}},
		"splice span outside":  {Structured: json.RawMessage(`[""]`), Splices: []Splice{{At: 1, Span: Span{5, 6}}}},
	} {
		if err := res.Resolve(body); err == nil {
			t.Errorf("%s: resolved to %+v", name, res)
		}
	}
	// A structured span must be one whole JSON value: the host writes it
	// into its answer as it is, so anything else could forge the answer.
	for name, res := range map[string]CallResult{
		"not JSON":            {StructuredSpan: &Span{0, 5}},
		"cut short":           {StructuredSpan: &Span{0, 6}},
		"two values":          {StructuredSpan: &Span{5, 5}},
		"breaks out":          {StructuredSpan: &Span{10, 16}},
		"empty":               {StructuredSpan: &Span{0, 0}},
		"outside":             {StructuredSpan: &Span{20, 40}},
		"span and inline too": {Structured: json.RawMessage(`{}`), StructuredSpan: &Span{5, 2}},
	} {
		body := []byte(`{"a":` + `{} {}` + `{}},"id":7,"x":{`)
		if name == "span and inline too" && !json.Valid(body[5:7]) || name == "breaks out" && string(body[10:26]) != `{}},"id":7,"x":{` {
			t.Fatalf("%s: the fixture's offsets are off", name)
		}
		if err := res.Resolve(body); err == nil {
			t.Errorf("%s: resolved to %+v", name, res)
		}
	}
}

// FuzzResolve decodes result headers and bodies as the host does: Resolve
// must never panic, and what it accepts must be valid JSON with every
// string where a splice put it.
func FuzzResolve(f *testing.F) {
	f.Add([]byte(`{"content":[{"type":"text","textSpan":{"off":0,"len":3}}],"structured":{"a":""},"splices":[{"at":5,"off":1,"len":2}]}`), []byte("abc"))
	f.Add([]byte(`{"structured":["","x\"\"",""],"splices":[{"at":1,"off":0,"len":1},{"at":11,"off":0,"len":0}]}`), []byte("\xff<>"))
	f.Add([]byte(`{"content":[{"type":"image","dataSpan":{"off":2,"len":1}}]}`), []byte("abc"))
	f.Add([]byte(`{"structuredSpan":{"off":1,"len":8},"splices":[{"at":5,"off":0,"len":1}]}`), []byte(`x{"a":""}`))
	f.Add([]byte(`{"structuredSpan":{"off":0,"len":5}}`), []byte(`{}},{`))
	f.Fuzz(func(t *testing.T, header, body []byte) {
		var res CallResult
		if json.Unmarshal(header, &res) != nil {
			return
		}
		had := len(res.Splices)
		if err := res.Resolve(body); err != nil {
			return
		}
		if len(res.Structured) > 0 && !json.Valid(res.Structured) {
			t.Fatalf("resolved to invalid JSON: %s", res.Structured)
		}
		if had > 0 && strings.Count(string(res.Structured), `"`) < 2 {
			t.Fatalf("splices vanished: %s", res.Structured)
		}
		for _, c := range res.Content {
			if c.TextSpan != nil || c.DataSpan != nil {
				t.Fatalf("a span left: %+v", c)
			}
		}
	})
}

// TestResolveRefusesRepeats: spans may name a body's bytes twice (a text
// sent once for the text and the structured content), not a thousand
// times: a small body must not resolve into gigabytes of the host's memory.
func TestResolveRefusesRepeats(t *testing.T) {
	body := []byte(strings.Repeat("x", 1<<20))
	whole := func() *Span { return &Span{0, len(body)} }
	twice := CallResult{
		Content:    []Content{{Type: "text", TextSpan: whole()}},
		Structured: json.RawMessage(`{"text":""}`),
		Splices:    []Splice{{At: 8, Span: *whole()}},
	}
	if err := twice.Resolve(body); err != nil {
		t.Fatalf("a text and its splice: %v", err)
	}
	var many CallResult
	for range 1000 {
		many.Content = append(many.Content, Content{Type: "text", TextSpan: whole()})
	}
	if err := many.Resolve(body); err != ErrSpanRepeat {
		t.Fatalf("1000 spans over one body: %v, want ErrSpanRepeat", err)
	}
	images := CallResult{Content: []Content{{Type: "image", DataSpan: whole()}, {Type: "image", DataSpan: whole()}, {Type: "image", DataSpan: whole()}}}
	if err := images.Resolve(body); err != ErrSpanRepeat {
		t.Fatalf("three images of one body: %v, want ErrSpanRepeat", err)
	}
	big := make([]byte, MaxResolved/2+1)
	huge := CallResult{Content: []Content{{Type: "text", TextSpan: &Span{0, len(big)}}, {Type: "text", TextSpan: &Span{0, len(big)}}}}
	if err := huge.Resolve(big); err != ErrSpanRepeat {
		t.Fatalf("spans past MaxResolved: %v, want ErrSpanRepeat", err)
	}
	small := CallResult{Content: []Content{{Type: "text", TextSpan: &Span{0, 3}}, {Type: "text", TextSpan: &Span{0, 3}}, {Type: "text", TextSpan: &Span{0, 3}}}}
	if err := small.Resolve([]byte("abc")); err != nil {
		t.Fatalf("a small result naming its body three times: %v", err)
	}
}
