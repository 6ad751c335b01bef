package abi

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// strictDecode is how the host decodes a request without the fast path
// (hostfns.decodeStrict): unknown fields refused, nothing after the value.
func strictDecode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	return nil
}

var readRequests = []string{
	`{"path":"tiny.txt"}`,
	`{"path":"a/b.go","line":3,"lines":20,"maxBytes":90000}`,
	`{"path":"x","offset":12,"length":4096,"binary":true,"hash":true}`,
	` { "path" : "\u00e9t\u00e9\n" , "hash" : false } `,
	`{}`,
	`{"path":"a","path":"b"}`,
	`{"Path":"a"}`,
	`{"path":"a","extra":1}`,
	`{"path":null}`,
	`{"path":"a","line":1.5}`,
	`{"path":"a","line":1e2}`,
	`{"path":"a","offset":-3}`,
	`{"path":"a","offset":99999999999999999999}`,
	`{"path":"a","line":-0}`,
	`{"path":"a"} {}`,
	`{"path":"a"}]`,
	`{"path":"\ud800"}`,
	"{\"path\":\"\xff\"}",
	`{"path":"a","binary":tru}`,
	`{"path":"a","binary":truex}`,
	`{"path":"a","binary":"true"}`,
	`[]`,
	`"path"`,
	``,
}

// TestDecodeReadRequestIsStrictDecoding holds the fast decoder to the
// strict one on the shapes the SDK writes and on the ones it must decline.
func TestDecodeReadRequestIsStrictDecoding(t *testing.T) {
	accepted := 0
	for _, s := range readRequests {
		if sameReadRequest(t, []byte(s)) {
			accepted++
		}
	}
	if accepted < 5 {
		t.Fatalf("the fast decoder took %d of the requests the SDK writes, want all 5 of them", accepted)
	}
	var r ReadsRequest
	if !DecodeReadsRequest([]byte(`{"reads":[{"path":"a"},{"path":"b","line":2}]}`), &r) ||
		!reflect.DeepEqual(r, ReadsRequest{Reads: []ReadRequest{{Path: "a"}, {Path: "b", Line: 2}}}) {
		t.Fatalf("DecodeReadsRequest: %+v", r)
	}
}

// sameReadRequest checks that whatever DecodeReadRequest takes, the strict
// decoder takes too, to the same value, and says whether it took b.
func sameReadRequest(t *testing.T, b []byte) bool {
	t.Helper()
	var fast ReadRequest
	if !DecodeReadRequest(b, &fast) {
		return false
	}
	var slow ReadRequest
	if err := strictDecode(b, &slow); err != nil {
		t.Fatalf("%q: the fast decoder took what the strict one refuses (%v)", b, err)
	}
	if fast != slow {
		t.Fatalf("%q: fast %+v, strict %+v", b, fast, slow)
	}
	return true
}

func FuzzDecodeReadRequest(f *testing.F) {
	for _, s := range readRequests {
		f.Add([]byte(s))
	}
	for _, s := range lspRequests {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sameReadRequest(t, b)
		sameLSPRequest(t, b)
		var fast ReadsRequest
		if !DecodeReadsRequest(b, &fast) {
			return
		}
		var slow ReadsRequest
		if err := strictDecode(b, &slow); err != nil {
			t.Fatalf("%q: the fast decoder took what the strict one refuses (%v)", b, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q: fast %+v, strict %+v", b, fast, slow)
		}
	})
}

// TestAppendReadResultIsMarshal holds the encoder to json.Marshal.
func TestAppendReadResultIsMarshal(t *testing.T) {
	for _, r := range []ReadResult{
		{Path: "tiny.txt", Size: 12, ModTime: "2026-12-06T08:00:00Z", FirstLine: 1, LineCount: 2, TotalLines: 2},
		{Path: "<a&b>\u2028\xff", Size: 1 << 40, ModTime: "x", Binary: true, Truncated: true, StartOffset: -1, SHA256: "ab", Encoding: "utf-16le"},
		{},
	} {
		sameAsMarshal(t, r)
	}
	if _, ok := AppendReadResult(nil, &ReadResult{Status: Status{Error: &Error{Code: NotFound}}}); ok {
		t.Fatal("a result with an error was encoded; json.Marshal writes it")
	}
}

func sameAsMarshal(t *testing.T, r ReadResult) {
	t.Helper()
	got, ok := AppendReadResult([]byte("x"), &r)
	if !ok {
		return
	}
	want, err := json.Marshal(&r)
	if err != nil {
		t.Fatal(err)
	}
	if string(got[1:]) != string(want) || got[0] != 'x' {
		t.Fatalf("AppendReadResult(%+v):\n got %s\nwant x%s", r, got, want)
	}
}

func FuzzAppendReadResult(f *testing.F) {
	f.Add("tiny.txt", int64(12), "2026-12-06T08:00:00Z", false, true, 1, 2, 3, int64(0), "", "")
	f.Add("<é>", int64(-1), "", true, false, 0, 0, 0, int64(9), "ab", "utf-16be")
	f.Fuzz(func(t *testing.T, path string, size int64, mod string, binary, truncated bool, first, count, total int, start int64, sha, enc string) {
		sameAsMarshal(t, ReadResult{Path: path, Size: size, ModTime: mod, Binary: binary, Truncated: truncated,
			FirstLine: first, LineCount: count, TotalLines: total, StartOffset: start, SHA256: sha, Encoding: enc})
	})
}

var lspRequests = []string{
	`{"op":"definition","path":"app/main.go","line":6,"column":11}`,
	`{"op":"references","path":"a.go","line":1,"column":1,"includeDeclaration":true,"maxResults":50}`,
	`{"op":"workspaceSymbols","path":"dir","query":"New\u003cServer\u003e"}`,
	`{"op":"definition","op":"references"}`,
	`{"op":"definition","Line":3}`,
	`{"op":"definition","maxResults":null}`,
	`{"op":"definition","includeDeclaration":1}`,
}

// TestDecodeLSPRequestIsStrictDecoding holds the fast decoder of a
// language server request to the strict one.
func TestDecodeLSPRequestIsStrictDecoding(t *testing.T) {
	accepted := 0
	for _, s := range append(lspRequests, readRequests...) {
		if sameLSPRequest(t, []byte(s)) {
			accepted++
		}
	}
	if accepted < 3 {
		t.Fatalf("the fast decoder took %d of the requests the SDK writes, want all 3 of them", accepted)
	}
}

// sameLSPRequest is sameReadRequest for an LSPRequest.
func sameLSPRequest(t *testing.T, b []byte) bool {
	t.Helper()
	var fast LSPRequest
	if !DecodeLSPRequest(b, &fast) {
		return false
	}
	var slow LSPRequest
	if err := strictDecode(b, &slow); err != nil {
		t.Fatalf("%q: the fast decoder took what the strict one refuses (%v)", b, err)
	}
	if fast != slow {
		t.Fatalf("%q: fast %+v, strict %+v", b, fast, slow)
	}
	return true
}
