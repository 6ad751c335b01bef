package juju

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// An fs.read request is written as json.Marshal writes it.
func TestAppendReadRequest(t *testing.T) {
	for _, req := range []abi.ReadRequest{
		{Path: "a.go"},
		{Path: "dir/b.txt", Line: 2001, Lines: 2000, MaxBytes: 90000},
		{Path: "min.js", Offset: 1 << 40, Length: 5, MaxBytes: 1, Binary: true},
		{Path: "main.go", Hash: true},
		{Path: "x", Binary: true, Hash: true},
		{Path: "odd \"<name>\" & \\ \u2028 \xff\x01", Line: -1},
		{},
	} {
		want, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendReadRequest(nil, &req); string(got) != string(want) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}

// readResultHeaders are answers to fs.read: what the host writes, and
// what it does not (to be declined, never misread).
var readResultHeaders = []string{
	`{"path":"a.go","size":40,"modTime":"2026-01-02T03:04:05Z","firstLine":1,"lineCount":3,"totalLines":3}`,
	`{"path":"big.txt","size":1073741824,"modTime":"2026-01-02T03:04:05Z","truncated":true,"firstLine":2001,"lineCount":2000,"totalLines":9000,"startOffset":123456}`,
	`{"path":"logo.png","size":2048,"modTime":"","binary":true}`,
	`{"path":"a.go","size":3,"modTime":"2026-01-02T03:04:05Z","sha256":"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}`,
	`{"path":"a.go","sha256":null}`,
	`{"path":"a.go","sha256":7}`,
	`{"error":{"code":"SECRET_DENIED","message":"a \"secret\" \u003cfile\u003e"}}`,
	` { "path" : "sp\u00e9cial \ud83d\ude00 \\ \/" , "size" : 0 , "modTime" : "x" } `,
	`{}`,
	`{"path":"a","size":-5,"modTime":"x","binary":false}`,
	`{"path":"a","PATH":"b"}`,
	`{"path":null}`,
	`{"error":null}`,
	`{"size":1.5}`,
	`{"size":1e3}`,
	`{"size":99999999999999999999}`,
	`{"firstLine":4294967296}`,
	`{"extra":1,"path":"a"}`,
	`{"path":"a"} x`,
	`{"path":"a",}`,
	`{"path":"a"`,
	`[]`,
	`{"error":{"code":"NOT_FOUND","message":"gone","hint":1}}`,
	`{"path":"\ud800"}`,
	"{\"path\":\"tab\there\"}",
}

// What decodeReadResult accepts it reads as encoding/json does.
func TestDecodeReadResult(t *testing.T) {
	accepted := 0
	for _, h := range readResultHeaders {
		if checkReadResult(t, []byte(h)) {
			accepted++
		}
	}
	if accepted < 7 {
		t.Fatalf("only %d of the headers were decoded fast: the fast path is not taken", accepted)
	}
}

// checkReadResult decodes data both ways and fails on any difference; it
// reports whether the fast decoder took it.
func checkReadResult(t *testing.T, data []byte) bool {
	t.Helper()
	var fast abi.ReadResult
	if !decodeReadResult(data, &fast) {
		return false
	}
	var want abi.ReadResult
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: decoded fast, but encoding/json refuses it: %v", data, err)
	}
	if !reflect.DeepEqual(fast, want) {
		t.Fatalf("%s:\nfast %+v (error %+v)\njson %+v (error %+v)", data, fast, fast.Error, want, want.Error)
	}
	return true
}

func FuzzDecodeReadResult(f *testing.F) {
	for _, h := range readResultHeaders {
		f.Add([]byte(h))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkReadResult(t, data) })
}

// A language server request is written as json.Marshal writes it.
func TestAppendLSPRequest(t *testing.T) {
	for _, req := range []abi.LSPRequest{
		{Op: abi.LSPDefinition, Path: "app/main.go", Line: 6, Column: 11},
		{Op: abi.LSPReferences, Path: "a.go", Line: 1, Column: 1, IncludeDeclaration: true, MaxResults: 50},
		{Op: abi.LSPWorkspaceSymbols, Query: "New<Server> & \u2028", Path: "dir"},
		{Op: abi.LSPDocumentSymbols, Path: "odd \"name\" \\ \xff\x01", Line: -1, Column: -2, MaxResults: -3},
		{},
	} {
		want, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendLSPRequest(nil, &req); string(got) != string(want) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}
