package juju

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// lspResultHeaders are answers to juju_lsp: what the host writes, and what
// it does not (to be declined, never misread).
var lspResultHeaders = []string{
	`{"server":"gopls","locations":[{"path":"lib/server.go","line":7,"column":6,"endLine":7,"endColumn":15,"text":"func NewServer(name string) *Server {"}]}`,
	`{"server":"gopls","locations":[{"path":"/usr/local/go/src/fmt/print.go","outside":true,"line":272}],"truncated":true,"hidden":2}`,
	`{"server":"gopls","locations":[]}`,
	`{"unregistered":true,"language":"python"}`,
	`{"unregistered":true}`,
	`{"server":"gopls","symbols":[{"name":"Server","kind":"struct","detail":"struct{...}","path":"a.go","line":3,"column":6,"endLine":9,"endColumn":2,"children":[{"name":"Name","kind":"field","detail":"string","path":"a.go","line":4,"column":2}]},{"name":"main","kind":"function","path":"a.go","line":11}]}`,
	`{"server":"gopls","symbols":[{"name":"Run","kind":"method","container":"example.com/x.Server","path":"x/s.go","line":20,"column":18,"outside":false}]}`,
	`{"server":"gopls","symbols":[{"name":"a","kind":"k","path":"p","line":1,"children":[]}]}`,
	`{"server":"gopls,pyright","pulled":true,"diagnostics":[{"path":"a.go","severity":"error","code":"UndeclaredName","source":"compiler","message":"undefined: x \u003c\u003e","line":3,"column":2,"endLine":3,"endColumn":3}]}`,
	`{"diagnostics":[{"path":"a.py","severity":"warning","message":"m","line":1,"column":1,"endLine":1,"endColumn":1}],"truncated":true}`,
	`{"error":{"code":"UNAVAILABLE","message":"the language server \"gopls\" exited"}}`,
	` { "server" : "sp\u00e9cial \ud83d\ude00" , "locations" : [ { "path" : "a" , "line" : 1 } ] } `,
	`{}`,
	`{"servers":[{"name":"gopls","languages":["go"],"running":["."]}]}`,
	`{"locations":null}`,
	`{"symbols":[null]}`,
	`{"locations":[{"path":"a","line":1.5}]}`,
	`{"locations":[{"path":"a","line":1e3}]}`,
	`{"locations":[{"path":"a","line":99999999999999999999}]}`,
	`{"locations":[{"path":"a","Line":1}]}`,
	`{"locations":[{"path":"a","line":1,"extra":2}]}`,
	`{"locations":[{"path":"a","line":1}],"locations":[{"text":"t"}]}`,
	`{"symbols":[{"name":"a","children":[{"name":"b","detail":"d"}],"children":[{"name":"c"}]}]}`,
	`{"error":{"code":"A"},"error":{"message":"m"}}`,
	`{"server":"a","server":"b","hidden":1,"hidden":3}`,
	`{"locations":[{"path":"a","path":"b","line":1,"line":2}]}`,
	`{"locations":[{"path":"a","line":1},]}`,
	`{"locations":[{"path":"a","line":1}]`,
	`{"locations":[{"path":"a","line":1}]} x`,
	`{"server":"\ud800"}`,
	"{\"server\":\"tab\there\"}",
	`[]`,
	`{"hidden":-1,"truncated":false,"pulled":false,"unregistered":false}`,
}

// What decodeLSPResult accepts it reads as encoding/json does.
func TestDecodeLSPResult(t *testing.T) {
	accepted := 0
	for _, h := range lspResultHeaders {
		if checkLSPResult(t, []byte(h)) {
			accepted++
		}
	}
	if accepted < 14 {
		t.Fatalf("only %d of the headers were decoded fast: the fast path is not taken", accepted)
	}
	// A tree deeper than the fast decoder goes is left to encoding/json.
	deep := strings.Repeat(`{"name":"n","kind":"k","path":"p","line":1,"children":[`, 200) + `{"name":"leaf"}` + strings.Repeat(`]}`, 200)
	var r abi.LSPResult
	if decodeLSPResult([]byte(`{"symbols":[`+deep+`]}`), &r) {
		t.Fatal("a tree 200 levels deep was decoded by the fast path")
	}
}

func FuzzDecodeLSPResult(f *testing.F) {
	for _, h := range lspResultHeaders {
		f.Add([]byte(h))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkLSPResult(t, data) })
}

// checkLSPResult decodes data both ways and fails on any difference; it
// reports whether the fast decoder took it.
func checkLSPResult(t *testing.T, data []byte) bool {
	t.Helper()
	var fast abi.LSPResult
	if !decodeLSPResult(data, &fast) {
		return false
	}
	var want abi.LSPResult
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: decoded fast, but encoding/json refuses it: %v", data, err)
	}
	if !reflect.DeepEqual(fast, want) {
		t.Fatalf("%s:\nfast %+v (error %+v)\njson %+v (error %+v)", data, fast, fast.Error, want, want.Error)
	}
	return true
}
