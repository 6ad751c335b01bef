package juju

import (
	"encoding/json"
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
		{Content: []abi.Content{{Type: "text", Text: "x"}}, Structured: json.RawMessage(`{"a":[1,2]}`)},
		{Structured: json.RawMessage(`{}`)},
		{Error: Errorf(abi.NotFound, `no "x" here; list the folder`)},
	} {
		structured := res.Structured
		got := encodeResult(&abi.CallResult{Content: res.Content, Error: res.Error}, structured)
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

func BenchmarkAppendString(b *testing.B) {
	s := strings.Repeat("this is a line of some source code, 50 bytes long\n", 2000)
	b.SetBytes(int64(len(s)))
	var buf []byte
	for b.Loop() {
		buf = appendString(buf[:0], s)
	}
}
