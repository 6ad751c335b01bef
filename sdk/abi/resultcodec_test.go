package abi

import (
	"encoding/json"
	"reflect"
	"testing"
)

// fastHeaders are headers as the SDK writes them, which DecodeCallResult
// must decode itself; otherHeaders it declines, or decodes as
// encoding/json does.
var fastHeaders = []string{
	`{"content":[{"type":"text","textSpan":{"off":0,"len":120}}],"structured":{"path":"tiny.txt","content":"","size":80},"splices":[{"at":28,"off":0,"len":80}]}`,
	`{"content":[{"type":"text","text":"pong"}],"structured":{"text":"pong"}}`,
	`{"content":[{"type":"text","text":"line one\nline \"two\"\t\\ \/ \u00e9 \u0000 é ☃"}]}`,
	`{"content":[{"type":"image","dataSpan":{"off":3,"len":9},"mimeType":"image/png"},{"type":"text","text":""}]}`,
	`{"structuredSpan":{"off":0,"len":600},"splices":[{"at":5,"off":0,"len":1},{"at":9,"off":1,"len":2}]}`,
	`{"error":{"code":"NOT_FOUND","message":"no file \"x\" here; list the folder"}}`,
	` { "content" : [ ] , "splices" : [ ] , "structured" : [ 1 , {"a" : null} ] } `,
	`{}`,
	`{"content":[{"type":"text","textSpan":{"off":-0,"len":9223372036854775807}}]}`,
}

var otherHeaders = []string{
	`null`,
	`{"content":null}`,
	`{"structured":null}`,
	`{"content":[null]}`,
	`{"Content":[]}`,
	`{"content":[],"content":[]}`,
	`{"error":{"code":"X","code":"Y","message":""}}`,
	`{"content":[{"type":"image","data":"aGk="}]}`,
	`{"content":[{"type":"text","text":"\ud83d\ude00"}]}`,
	`{"content":[{"type":"text","text":"` + "\xff" + `"}]}`,
	`{"content":[{"type":"text","text":"a\n` + "\xc3" + `"}]}`,
	`{"structuredSpan":{"off":1.0,"len":2}}`,
	`{"structuredSpan":{"off":1e2,"len":2}}`,
	`{"structuredSpan":{"off":99999999999999999999,"len":2}}`,
	`{"con\u0074ent":[]}`,
	`{"other":1}`,
	`{"content":[]} x`,
	`{"content":[{"type":"text","text":"a"},]}`,
	`{"structured":{"a":}}`,
	`{"splices":[{"at":1,"off":0,"len":1,"x":2}]}`,
}

// TestDecodeCallResult holds DecodeCallResult to encoding/json on every
// header above, and checks that the SDK's shapes take the fast path.
func TestDecodeCallResult(t *testing.T) {
	for _, h := range fastHeaders {
		if !sameAsEncodingJSON(t, []byte(h)) {
			t.Errorf("DecodeCallResult declined %s", h)
		}
	}
	for _, h := range otherHeaders {
		sameAsEncodingJSON(t, []byte(h))
	}
}

// sameAsEncodingJSON fails t when DecodeCallResult accepts b and
// json.Unmarshal does not, or gives another result; it reports whether
// DecodeCallResult accepted b.
func sameAsEncodingJSON(t *testing.T, b []byte) bool {
	t.Helper()
	var got CallResult
	if !DecodeCallResult(b, &got) {
		return false
	}
	var want CallResult
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatalf("DecodeCallResult accepted %q, which encoding/json refuses: %v", b, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\nDecodeCallResult %#v\nencoding/json    %#v", b, got, want)
	}
	return true
}

func FuzzDecodeCallResult(f *testing.F) {
	for _, h := range append(fastHeaders, otherHeaders...) {
		f.Add([]byte(h))
	}
	f.Fuzz(func(t *testing.T, b []byte) { sameAsEncodingJSON(t, b) })
}
