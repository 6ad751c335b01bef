package juju

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// appendString must agree with encoding/json on what every string decodes to.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{
		"", "plain ascii text, long enough for words", "tab\there\nnew\r\"q\"\\",
		"\x00\x01\x1f\x7f", "héllo wörld ✓ 日本語", "bad \xff\xfe utf8", "\u2028\u2029",
		strings.Repeat("abcdefg\"", 9), "12345678\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := appendString(nil, s)
		var back, want string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("%q encodes to invalid JSON %s: %v", s, got, err)
		}
		std, _ := json.Marshal(s)
		json.Unmarshal(std, &want)
		if back != want {
			t.Fatalf("%q: decodes to %q, encoding/json's to %q", s, back, want)
		}
	})
}

func TestEncodeResultMatchesEncodingJSON(t *testing.T) {
	for _, res := range []*abi.CallResult{
		{},
		{Content: []abi.Content{{Type: "text", Text: "a\tb\n<>&"}, {Type: "image", Data: []byte{0, 1, 2, 250}, MimeType: "image/png"}}},
		{Content: []abi.Content{{Type: "text", Text: strings.Repeat("long \"text\"\n", 20)}, {Type: "image", Data: make([]byte, 300), MimeType: "image/png"}}},
		{Content: []abi.Content{{Type: "text", Text: "x"}}, Structured: json.RawMessage(`{"a":[1,2]}`)},
		{Structured: json.RawMessage(`{}`)},
		{Content: []abi.Content{{Type: "text", Text: "x"}}, Structured: json.RawMessage(`{"path":"a/long/enough/path/to/go/past/sixty-four/bytes.txt","size":1234567,"lines":[1,2,3]}`)},
		{Content: []abi.Content{{Type: "text", Text: "x"}}, Structured: json.RawMessage(`{"names":[` + strings.Repeat(`"a \"name\"",`, 100) + `"last"]}`)},
		{Error: Errorf(abi.NotFound, `no "x" here; list the folder`)},
	} {
		structured := res.Structured
		f := &frame{}
		encodeResult(f, &abi.CallResult{Content: res.Content, Error: res.Error}, structured)
		got := resolve(t, f.bytes())
		want, _ := json.Marshal(res)
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("invalid JSON %s: %v", got, err)
		}
		json.Unmarshal(want, &w)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}

// resolve decodes a result frame as the host does and returns the result
// re-encoded by encoding/json.
func resolve(t *testing.T, frame []byte) []byte {
	t.Helper()
	header, body, err := abi.DecodeFrame(frame)
	if err != nil {
		t.Fatal(err)
	}
	var res abi.CallResult
	if err := json.Unmarshal(header, &res); err != nil {
		t.Fatalf("header %s: %v", header, err)
	}
	if err := res.Resolve(body); err != nil {
		t.Fatalf("resolve %s: %v", header, err)
	}
	out, _ := json.Marshal(&res)
	return out
}

// Long strings travel in the body, once however often they are used, and
// the header stays small.
func TestResultSpansAndSplices(t *testing.T) {
	long := strings.Repeat("a line of text with \"quotes\" and <tags>\n", 10)
	type out struct {
		Path    string   `json:"path"`
		Content string   `json:"content"`
		Again   string   `json:"again"`
		List    []string `json:"list"`
	}
	v := &out{Path: "a/folder/and/another/x.txt", Content: long, Again: long, List: []string{"short", long[:100]}}
	for i := range 80 { // enough for the structured content to travel as a span too
		v.List = append(v.List, fmt.Sprint("item ", i))
	}
	f := &frame{}
	structured, ok := marshalSpill(v, &f.body)
	if !ok {
		t.Fatal("declined")
	}
	encodeResult(f, &abi.CallResult{Content: []abi.Content{{Type: "text", Text: long}}}, structured)
	if len(structured) < structuredSpanMin {
		t.Fatalf("structured content of %d bytes: too short for the test", len(structured))
	}
	if len(f.header) > 300 || bytes.Contains(f.header, []byte("quotes")) {
		t.Fatalf("the long strings are in the header: %s", f.header)
	}
	if f.body.size != len(long)+100+len(structured) {
		t.Fatalf("body of %d bytes, want each string once and the structured content (%d)", f.body.size, len(long)+100+len(structured))
	}
	if !bytes.Contains(f.header, []byte(`"structuredSpan":`)) || bytes.Contains(f.header, []byte(`"structured":`)) {
		t.Fatalf("the structured content is not a span of the body: %s", f.header)
	}
	want, _ := json.Marshal(&abi.CallResult{Content: []abi.Content{{Type: "text", Text: long}}, Structured: mustJSON(t, v)})
	if got := resolve(t, f.bytes()); !bytes.Equal(got, want) {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func BenchmarkAppendString(b *testing.B) {
	s := strings.Repeat("this is a line of some source code, 50 bytes long\n", 2000)
	b.SetBytes(int64(len(s)))
	var buf []byte
	for b.Loop() {
		buf = appendString(buf[:0], s)
	}
}
