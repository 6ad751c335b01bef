package juju

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

func TestDecodeArgs(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want allArgs // compared when err is empty
		err  string  // a substring of the INVALID_ARGUMENT message
	}{
		{name: "defaults", raw: `{"path":"a"}`, want: allArgs{Path: "a", Mode: "fast", Count: 3}},
		{name: "given", raw: `{"path":"a","mode":"slow","count":10,"tags":["x","y"]}`, want: allArgs{Path: "a", Mode: "slow", Count: 10, Tags: []string{"x", "y"}}},
		{name: "null is absent", raw: `{"path":"a","count":null}`, want: allArgs{Path: "a", Mode: "fast", Count: 3}},
		{name: "nested", raw: `{"path":"a","nested":{"depth":2}}`, want: allArgs{Path: "a", Mode: "fast", Count: 3, Nested: inner{Depth: 2}}},
		{name: "unknown", raw: `{"path":"a","bogus":1}`, err: `unknown argument "bogus"; t takes only: path, mode, count`},
		{name: "case hint", raw: `{"Path":"a"}`, err: `unknown argument "Path" (did you mean "path"?)`},
		{name: "missing required", raw: `{}`, err: `the argument "path" is required by t; it is: A path.`},
		{name: "empty object is missing", raw: ``, err: `the argument "path" is required`},
		{name: "not an object", raw: `[1]`, err: `must be a JSON object`},
		{name: "enum", raw: `{"path":"a","mode":"warp"}`, err: `the argument "mode" must be one of "fast", "slow", not "warp"`},
		{name: "minimum", raw: `{"path":"a","count":0}`, err: `the argument "count" must be at least 1 (got 0)`},
		{name: "maximum", raw: `{"path":"a","count":11}`, err: `the argument "count" must be at most 10 (got 11)`},
		// An integer its tags leave unbounded is bounded by the integers a
		// float64 holds exactly.
		{name: "safe maximum", raw: `{"path":"a","offset":9007199254740993}`, err: `the argument "offset" must be at most 9007199254740991 (got 9007199254740992)`},
		{name: "safe minimum", raw: `{"path":"a","offset":-9007199254740993}`, err: `the argument "offset" must be at least -9007199254740991`},
		{name: "safe range", raw: `{"path":"a","offset":9007199254740991}`, want: allArgs{Path: "a", Mode: "fast", Count: 3, Offset: 9007199254740991}},
		{name: "minLength", raw: `{"path":""}`, err: `the argument "path" must be at least 1 characters long (got 0)`},
		{name: "maxItems", raw: `{"path":"a","tags":["1","2","3"]}`, err: `the argument "tags" must have at most 2 items (got 3)`},
		{name: "type", raw: `{"path":"a","count":"many"}`, err: `the argument "count" must be an integer, not string`},
		{name: "fraction", raw: `{"path":"a","count":1.5}`, err: `the argument "count" must be an integer, not number 1.5`},
		{name: "nested unknown", raw: `{"path":"a","nested":{"depth":1,"x":2}}`, err: `unknown argument "nested.x"; "nested" takes only: depth, note`},
		{name: "nested required", raw: `{"path":"a","nested":{}}`, err: `the argument "nested.depth" is required`},
		{name: "nested range in slice", raw: `{"path":"a","deep":{"k":[{"depth":1},{"depth":12}]}}`, err: `the argument "deep.k[1].depth" must be at most 9 (got 12)`},
		{name: "syntax", raw: `{"path":`, err: `not valid JSON`},
		{name: "nested type", raw: `{"path":"a","nested":{"depth":"deep"}}`, err: `the argument "nested.depth" must be an integer, not string`},
		{name: "null required", raw: `{"path":null}`, err: `the argument "path" is required`},
		{name: "extra brace", raw: `{"path":"a"}}`, err: `not valid JSON`},
		{name: "trailing", raw: `{"path":"a"} {}`, err: `not valid JSON`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got allArgs
			err := decodeArgs("t", json.RawMessage(tt.raw), &got)
			if tt.err == "" {
				if err != nil {
					t.Fatalf("error: %v", err)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Fatalf("got %+v, want %+v", got, tt.want)
				}
				return
			}
			e, ok := AsError(err)
			if !ok || e.Code != abi.InvalidArgument {
				t.Fatalf("want INVALID_ARGUMENT, got %v", err)
			}
			if !strings.Contains(e.Message, tt.err) {
				t.Fatalf("message %q lacks %q", e.Message, tt.err)
			}
		})
	}
}

type flatArgs struct {
	Path  string `json:"path" jsonschema:"required"`
	Count int    `json:"count" jsonschema:"required"`
}

func TestDecodeArgsFlat(t *testing.T) {
	var got flatArgs
	if err := decodeArgs("t", json.RawMessage(`{"path":"a","count":0}`), &got); err != nil {
		t.Fatalf("a required argument given as zero is given: %v", err)
	}
	for raw, want := range map[string]string{
		`{"Path":"a","count":1}`:    `unknown argument "Path" (did you mean "path"?)`,
		`{"path":"a"}`:              `the argument "count" is required`,
		`{"path":"a","count":null}`: `the argument "count" is required`,
	} {
		err := decodeArgs("t", json.RawMessage(raw), &flatArgs{})
		if e, ok := AsError(err); !ok || !strings.Contains(e.Message, want) {
			t.Errorf("%s: got %v, want %q", raw, err, want)
		}
	}
}

type declineArgs struct {
	Labels map[string]string `json:"labels"`
	Mode   string            `json:"mode" default:"fast"`
	Ratio  float64           `json:"ratio"`
}

// TestDecodeArgsAfterDecline gives arguments the fast decoder starts on and
// then declines (a float): the slow decoder's result must be encoding/json's
// over the defaults, whatever the fast one set before it declined.
func TestDecodeArgsAfterDecline(t *testing.T) {
	for raw, want := range map[string]declineArgs{
		`{"labels":{"a":"1"},"mode":"slow","ratio":0.5}`:             {Labels: map[string]string{"a": "1"}, Mode: "slow", Ratio: 0.5},
		`{"labels":{"a":"1"},"ratio":0.5}`:                           {Labels: map[string]string{"a": "1"}, Mode: "fast", Ratio: 0.5},
		`{"mode":"slow","labels":{"a":"1"},"mode":null,"ratio":0.5}`: {Labels: map[string]string{"a": "1"}, Mode: "slow", Ratio: 0.5},
		`{"labels":{"a":"1"},"mode":"slow"}`:                         {Labels: map[string]string{"a": "1"}, Mode: "slow"},
	} {
		if _, ok := decodeTopFast(json.RawMessage(raw), reflect.ValueOf(&declineArgs{}).Elem()); ok && strings.Contains(raw, "ratio") {
			t.Errorf("%s: the fast decoder took a float; this test needs arguments it declines", raw)
		}
		var got declineArgs
		if err := decodeArgs("t", json.RawMessage(raw), &got); err != nil {
			t.Errorf("%s: %v", raw, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v, want %+v", raw, got, want)
		}
		var slow declineArgs
		if err := json.Unmarshal([]byte(raw), &slow); err != nil {
			t.Fatal(err)
		}
		if slow.Mode == "" {
			slow.Mode = "fast"
		}
		if !reflect.DeepEqual(got, slow) {
			t.Errorf("%s: got %+v, encoding/json over the defaults %+v", raw, got, slow)
		}
	}
}

// A number past what its Go type holds, given to the SDK by a host that
// does not check the schema first, is out of range, not of a wrong type.
func TestDecodeArgsNumberPastItsType(t *testing.T) {
	type args struct {
		U8 uint8 `json:"u8"`
		In struct {
			I16 int16 `json:"i16"`
		} `json:"in"`
	}
	for raw, want := range map[string]string{
		`{"u8":300}`:           `the argument "u8" must be from 0 to 255 (got 300)`,
		`{"u8":-1}`:            `the argument "u8" must be from 0 to 255 (got -1)`,
		`{"in":{"i16":40000}}`: `the argument "in.i16" must be from -32768 to 32767 (got 40000)`,
		`{"u8":"x"}`:           `the argument "u8" must be an integer, not string`,
		// A number's text is the client's, of any length: a long one is
		// echoed short.
		`{"u8":1` + strings.Repeat("0", 308) + `}`:         `the argument "u8" must be from 0 to 255 (got 1e+308)`,
		`{"u8":1` + strings.Repeat("0", 400) + `}`:         `the argument "u8" must be from 0 to 255 (got 1000000000000000… (a number of 401 characters))`,
		`{"u8":1.` + strings.Repeat("0", 300) + `1}`:       `the argument "u8" must be an integer, not number 1.00000000000000… (a number of 303 characters)`,
		`{"in":{"i16":0.` + strings.Repeat("3", 50) + `}}`: `the argument "in.i16" must be an integer, not number 0.33333333333333… (a number of 52 characters)`,
	} {
		err := decodeArgs("t", json.RawMessage(raw), &args{})
		if e, ok := AsError(err); !ok || e.Message != want {
			t.Errorf("%s: got %v, want %q", raw, err, want)
		}
	}
}

// A number out of its tags' range is echoed short however it was written.
func TestDecodeArgsEchoesANumberShort(t *testing.T) {
	type args struct {
		F float64 `json:"f" min:"0" max:"1"`
	}
	for raw, want := range map[string]string{
		`{"f":1e308}`:   `the argument "f" must be at most 1 (got 1e+308)`,
		`{"f":-1e-300}`: `the argument "f" must be at least 0 (got -1e-300)`,
		`{"f":1.5}`:     `the argument "f" must be at most 1 (got 1.5)`,
	} {
		err := decodeArgs("t", json.RawMessage(raw), &args{})
		if e, ok := AsError(err); !ok || e.Message != want {
			t.Errorf("%s: got %v, want %q", raw, err, want)
		}
	}
}

type sharedDefaultArgs struct {
	Include *bool          `json:"include" default:"true"`
	Tags    []string       `json:"tags" default:"[\"a\",\"b\"]"`
	Limits  map[string]int `json:"limits" default:"{\"n\":1}"`
}

// TestDefaultsNotShared: a pointer, slice or map default is each call's
// own. find_references' includeDeclaration (*bool, default true) given
// false once had every later call of the plugin instance that left it out
// list no declarations, since false was decoded through the default's
// pointer.
func TestDefaultsNotShared(t *testing.T) {
	for _, raw := range []string{`{"include":false,"tags":["x"],"limits":{"m":2}}`, `{"include":false}`} {
		var given sharedDefaultArgs
		if err := decodeArgs("t", json.RawMessage(raw), &given); err != nil {
			t.Fatal(err)
		}
		if *given.Include {
			t.Fatalf("%s: include decoded as true", raw)
		}
		given.Tags[0], given.Limits["z"] = "changed", 9
		var later sharedDefaultArgs
		if err := decodeArgs("t", json.RawMessage(`{}`), &later); err != nil {
			t.Fatal(err)
		}
		want := sharedDefaultArgs{Include: new(true), Tags: []string{"a", "b"}, Limits: map[string]int{"n": 1}}
		if !reflect.DeepEqual(later, want) {
			t.Fatalf("after %s, a call without the arguments got include=%v tags=%q limits=%v, not the defaults", raw, *later.Include, later.Tags, later.Limits)
		}
	}
}
