package juju

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// fastShape has a field of every kind the fast paths handle, and a few
// they decline.
type fastShape struct {
	abi.Status
	S     string          `json:"s"`
	Code  abi.Code        `json:"code,omitempty"`
	N     int             `json:"n,omitempty"`
	I8    int8            `json:"i8"`
	U     uint16          `json:"u,omitempty"`
	B     bool            `json:"b,omitempty"`
	P     *fastInner      `json:"p,omitempty"`
	L     []string        `json:"l"`
	Items []fastInner     `json:"items,omitempty"`
	Raw   json.RawMessage `json:"raw,omitempty"`
	Name  string          // no tag
	Skip  string          `json:"-"`
	priv  int
}

// fastMaps has the maps the decoder takes (string keys) and one it
// declines.
type fastMaps struct {
	Ext   map[string]abi.ExtensionStat `json:"ext,omitempty"`
	Names map[abi.Code]string          `json:"names"`
	Ptrs  map[string]*fastInner        `json:"ptrs"`
	Ints  map[int]string               `json:"ints"`
}

type fastInner struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

type fastFloat struct {
	F float64 `json:"f"`
}

var fastInputs = []string{
	`{}`, ` { } `, `null`, `{"s":"x"}`, `{"s":""}`, `{"s":null}`, `{"s":1}`,
	`{"s":"tab\there \"q\" back\\slash \/ \b\f\n\r"}`, `{"s":"\u00e9\u2028\u0041"}`,
	`{"s":"\ud83d\ude00"}`, `{"s":"\ud800"}`, `{"s":"héllo ✓"}`, "{\"s\":\"bad \xff\"}", "{\"s\":\"ctl \x01\"}",
	`{"s":"\u00G0"}`, `{"s":"\u+0a0"}`, `{"s":"\x"}`, `{"s":"unterminated`,
	`{"n":12,"i8":-128,"u":65535}`, `{"i8":128}`, `{"u":-1}`, `{"u":65536}`, `{"n":1.5}`, `{"n":1e3}`,
	`{"n":-0}`, `{"n":01}`, `{"n":-}`, `{"n":9223372036854775808}`, `{"b":true}`, `{"b":false}`, `{"b":tru}`,
	`{"p":{"path":"a","size":3}}`, `{"p":null}`, `{"l":["a","b"]}`, `{"l":[]}`, `{"l":null}`, `{"l":[1]}`,
	`{"items":[{"path":"a","size":1},{"path":"b","size":2}]}`, `{"items":[{"path":"a","extra":{"x":[1,2.5e-3,true,null,"s"]}}]}`,
	`{"raw":{"a": [1, 2]}}`, `{"raw":null}`, `{"raw":"x"}`, `{"error":{"code":"NOT_FOUND","message":"gone"}}`,
	`{"Name":"n"}`, `{"name":"n"}`, `{"S":"upper"}`, `{"Skip":"x"}`, `{"-":"x"}`, `{"priv":1}`,
	`{"unknown":1}`, `{"unknown":{"deep":[{}]}}`, `{"unknown":[1,}`, `{"s":"a",}`, `{"s":"a"} x`, `{"s":"a"}{}`,
	`{"s" "a"}`, `{s:"a"}`, `[1]`, `"s"`, ``, `{"s":"a","s":"b"}`, `{"l":["a"],"l":["b","c"]}`,
	`{"f":1.5}`, `{"f":1}`,
	`{"ext":{".go":{"files":3,"bytes":120},"Makefile":{"files":1,"bytes":9}}}`, `{"ext":{}}`, `{"ext":null}`,
	`{"ext":{"a":{"files":1},"a":{"bytes":2}}}`, `{"ext":{"a":1}}`, `{"ext":{"a":{"files":1},}}`, `{"ext":{a:{}}}`,
	`{"names":{"NOT_FOUND":"gone","\u00e9":"x"}}`, `{"ptrs":{"p":{"path":"a"},"q":null}}`, `{"ints":{"1":"one"}}`,
	`{"ext":{"x":{"files":1,"bytes":2}},"ext":{"y":{"files":3}}}`,
}

// unmarshalFast must either decline or agree with json.Unmarshal.
func TestUnmarshalFastAgrees(t *testing.T) {
	for _, in := range fastInputs {
		checkUnmarshal[fastShape](t, in)
		checkUnmarshal[fastFloat](t, in)
		checkUnmarshal[fastMaps](t, in)
		checkUnmarshal[abi.CallRequest](t, in)
		checkUnmarshal[abi.GlobResult](t, in)
	}
	// What the SDK decodes on every call must not be declined.
	for _, in := range []string{
		`{"tool":"read_file","arguments":{"path":"a.txt"}}`,
		`{"path":"a.txt","size":12,"modTime":"2024-01-02T03:04:05Z","firstLine":1,"lineCount":2,"totalLines":2}`,
		`{"entries":[{"name":"a_test.go","path":"x/a_test.go","type":"file","size":10,"modTime":"2024-01-02T03:04:05Z"}],"total":1}`,
	} {
		var req abi.CallRequest
		var read abi.ReadResult
		var glob abi.GlobResult
		if !unmarshalFast([]byte(in), &req) && !unmarshalFast([]byte(in), &read) && !unmarshalFast([]byte(in), &glob) {
			t.Errorf("declined %s", in)
		}
	}
}

// project_overview's answer from the host, with its map of extensions, is
// decoded by the fast path (encoding/json inside wasm cost the overview
// tens of thousands of calls).
func TestUnmarshalFastTakesDiscoverTasks(t *testing.T) {
	in := `{"tasks":[{"name":"test","runner":"make","command":"make test","cwd":".","file":"Makefile","line":3,"kind":"test"}],"files":2,"bytes":30,"extensions":{".go":{"files":1,"bytes":20},"Makefile":{"files":1,"bytes":10}}}`
	var tasks abi.DiscoverTasksResult
	if !unmarshalFast([]byte(in), &tasks) {
		t.Fatal("declined")
	}
	checkUnmarshal[abi.DiscoverTasksResult](t, in)
}

func checkUnmarshal[T any](t *testing.T, in string) {
	t.Helper()
	var got, want T
	if !unmarshalFast([]byte(in), &got) {
		return
	}
	if err := json.Unmarshal([]byte(in), &want); err != nil {
		t.Errorf("%T: fast path accepted %s, encoding/json: %v", got, in, err)
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%T: %s\nfast %+v\njson %+v", got, in, got, want)
	}
}

func FuzzUnmarshalFast(f *testing.F) {
	for _, in := range fastInputs {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkUnmarshal[fastShape](t, in)
		checkUnmarshal[fastMaps](t, in)
		checkUnmarshal[abi.CallRequest](t, in)
	})
}

// marshalFast must either decline or write exactly what json.Marshal writes.
func TestMarshalFastAgrees(t *testing.T) {
	for _, v := range []any{
		nil, "x", 3, true, []string(nil), []string{}, []int{1, -2},
		fastShape{}, &fastShape{S: "a<b>&c \u2028 \xff \b\f\t\x01 é", Code: abi.NotFound, N: -3, I8: 7, U: 9, B: true,
			P: &fastInner{Path: "p", Size: 1 << 40}, L: []string{"x", ""}, Items: []fastInner{{}, {Path: "q"}}, Name: "n"},
		fastShape{Status: abi.Status{Error: &abi.Error{Code: abi.Internal, Message: `say "hi"`}}},
		abi.GlobResult{Entries: []abi.Entry{{Name: "a", Path: "d/a", Type: abi.TypeFile, Size: 4, ModTime: "t"}}, Total: 1},
		[]any{1, "a", nil, fastInner{}},
	} {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := marshalFast(v)
		if ok && !bytes.Equal(got, want) {
			t.Errorf("%T:\nfast %s\njson %s", v, got, want)
		}
		if !ok {
			t.Errorf("%T: declined", v)
		}
	}
	for _, v := range []any{fastFloat{F: 1}, map[string]int{}, fastShape{Raw: json.RawMessage(`{}`)}, []byte("x")} {
		if _, ok := marshalFast(v); ok {
			t.Errorf("%T: accepted what it should decline", v)
		}
	}
}

func FuzzMarshalFast(f *testing.F) {
	f.Add("plain", "<&>", int64(0), true)
	f.Add("tab\t\"q\"\\", "\u2028\xff\x00", int64(-1), false)
	f.Fuzz(func(t *testing.T, a, b string, n int64, flag bool) {
		v := fastShape{S: a, Code: abi.Code(b), N: int(n), B: flag, L: []string{b, a}, Items: []fastInner{{Path: a, Size: n}}, Name: b}
		want, _ := json.Marshal(v)
		got, ok := marshalFast(v)
		if !ok || !bytes.Equal(got, want) {
			t.Fatalf("ok=%v\nfast %s\njson %s", ok, got, want)
		}
	})
}

// Marshal is json.Marshal's output, through the fast path or not.
func TestMarshal(t *testing.T) {
	for _, v := range []any{
		&fastShape{S: "a <b>", L: []string{"x"}, Items: []fastInner{{Path: "p", Size: 3}}},
		fastFloat{F: 1.5},
		map[string]int{"b": 2, "a": 1},
		nil,
	} {
		got, err := Marshal(v)
		want, werr := json.Marshal(v)
		if (err == nil) != (werr == nil) || string(got) != string(want) {
			t.Errorf("%T: got %s (%v), want %s (%v)", v, got, err, want, werr)
		}
	}
}
