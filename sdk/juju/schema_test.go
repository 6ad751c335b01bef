package juju

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

type inner struct {
	Depth int    `json:"depth" jsonschema:"required" min:"0" max:"9"`
	Note  string `json:"note,omitempty"`
}

type allArgs struct {
	Path    string             `json:"path" jsonschema:"required" min:"1" desc:"A path."`
	Mode    string             `json:"mode,omitempty" enum:"fast,slow" default:"fast"`
	Count   int                `json:"count,omitempty" default:"3" min:"1" max:"10"`
	Ratio   float64            `json:"ratio,omitempty"`
	Size    uint32             `json:"size,omitempty"`
	On      bool               `json:"on,omitempty"`
	Tags    []string           `json:"tags,omitempty" max:"2"`
	Nested  inner              `json:"nested,omitempty"`
	Ptr     *inner             `json:"ptr,omitempty"`
	Labels  map[string]int     `json:"labels,omitempty"`
	Raw     json.RawMessage    `json:"raw,omitempty"`
	When    time.Time          `json:"when,omitempty"`
	Blob    []byte             `json:"blob,omitempty"`
	Any     any                `json:"any,omitempty"`
	Skipped string             `json:"-"`
	hidden  string             //nolint:unused // unexported fields are not properties
	Nums    [2]int             `json:"nums,omitempty"`
	Deep    map[string][]inner `json:"deep,omitempty"`
	Offset  int64              `json:"offset,omitempty"`
}

func TestInputSchema(t *testing.T) {
	got, err := InputSchema(reflect.TypeFor[allArgs]())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","properties":{` +
		`"path":{"type":"string","description":"A path.","minLength":1},` +
		`"mode":{"type":"string","enum":["fast","slow"],"default":"fast"},` +
		`"count":{"type":"integer","default":3,"minimum":1,"maximum":10},` +
		`"ratio":{"type":"number"},` +
		`"size":{"type":"integer","minimum":0,"maximum":4294967295},` +
		`"on":{"type":"boolean"},` +
		`"tags":{"type":"array","maxItems":2,"items":{"type":"string"}},` +
		`"nested":{"type":"object","properties":{"depth":{"type":"integer","minimum":0,"maximum":9},"note":{"type":"string"}},"required":["depth"],"additionalProperties":false},` +
		`"ptr":{"type":"object","properties":{"depth":{"type":"integer","minimum":0,"maximum":9},"note":{"type":"string"}},"required":["depth"],"additionalProperties":false},` +
		`"labels":{"type":"object","additionalProperties":{"type":"integer"}},` +
		`"raw":{},` +
		`"when":{"type":"string","format":"date-time"},` +
		`"blob":{"type":"string","contentEncoding":"base64"},` +
		`"any":{},` +
		`"nums":{"type":"array","minItems":2,"maxItems":2,"items":{"type":"integer"}},` +
		`"deep":{"type":"object","additionalProperties":{"type":"array","items":{"type":"object","properties":{"depth":{"type":"integer","minimum":0,"maximum":9},"note":{"type":"string"}},"required":["depth"],"additionalProperties":false}}},` +
		`"offset":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991}` +
		`},"required":["path"],"additionalProperties":false}`
	if string(got) != want {
		t.Errorf("schema:\n got %s\nwant %s", got, want)
	}
}

type outEntry struct {
	Name string `json:"name"`
	Size int64  `json:"size,omitempty"`
}

type outResult struct {
	Path    string     `json:"path"`
	Entries []outEntry `json:"entries" jsonschema:"required"`
	Maybe   []outEntry `json:"maybe"`
	Extra   *outEntry  `json:"extra,omitempty"`
}

func TestOutputSchemaRequiresNothingAtTop(t *testing.T) {
	got, err := OutputSchema(reflect.TypeFor[outResult]())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","properties":{` +
		`"path":{"type":"string"},` +
		`"entries":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"size":{"type":"integer"}},"required":["name"]}},` +
		`"maybe":{"type":["array","null"],"items":{"type":"object","properties":{"name":{"type":"string"},"size":{"type":"integer"}},"required":["name"]}},` +
		`"extra":{"type":"object","properties":{"name":{"type":"string"},"size":{"type":"integer"}},"required":["name"]}` +
		`}}`
	if string(got) != want {
		t.Errorf("schema:\n got %s\nwant %s", got, want)
	}
}

type embedded struct {
	A string `json:"a"`
}

type withEmbedded struct {
	embedded
	B string `json:"b"`
}

func TestEmbeddedStructsAreInlined(t *testing.T) {
	got, err := InputSchema(reflect.TypeFor[withEmbedded]())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), `"properties":{"a":{"type":"string"},"b":{"type":"string"}}`) {
		t.Errorf("embedded fields not inlined: %s", got)
	}
}

// hostAnswer is shaped like an abi result: a status with an error slot
// that output schemas leave out.
type hostAnswer struct {
	Slot *string `json:"error,omitempty" jsonschema:"-"`
}

type wireResult struct {
	hostAnswer
	ID   string `json:"id" desc:"The id."`
	Note string `json:"note,omitempty"`
}

// toolResult adds a field to a wire result and hides one of its fields.
type toolResult struct {
	wireResult
	Note  int     `json:"note" desc:"Hides the embedded note."`
	Error *string `json:"error,omitempty" desc:"Shown, and hides the slot."`
}

func TestOutputSchemaOfEmbeddedWireTypes(t *testing.T) {
	for _, c := range []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[wireResult](), `{"type":"object","properties":{"id":{"type":"string","description":"The id."},"note":{"type":"string"}}}`},
		{reflect.TypeFor[toolResult](), `{"type":"object","properties":{"id":{"type":"string","description":"The id."},` +
			`"note":{"type":"integer","description":"Hides the embedded note."},"error":{"type":"string","description":"Shown, and hides the slot."}}}`},
	} {
		got, err := OutputSchema(c.typ)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: %v\n got %s\nwant %s", c.typ, err, got, c.want)
		}
	}
	// The encoders agree with encoding/json about which field a name means.
	msg := "e"
	v := toolResult{wireResult: wireResult{hostAnswer{&msg}, "x", "hidden"}, Note: 2}
	want, _ := json.Marshal(v)
	if got, ok := marshalFast(v); !ok || string(got) != string(want) {
		t.Errorf("marshalFast: %s %v, encoding/json %s", got, ok, want)
	}
	var back toolResult
	if !unmarshalFast([]byte(`{"id":"y","note":3,"error":"z"}`), &back) || back.Note != 3 || back.Error == nil || back.Slot != nil || back.ID != "y" {
		t.Errorf("unmarshalFast: %+v", back)
	}
	if s, err := InputSchema(reflect.TypeFor[wireResult]()); err == nil {
		t.Errorf("jsonschema:\"-\" in arguments: no error, schema %s", s)
	}
}

type recursive struct {
	Next *recursive `json:"next"`
}

func TestSchemaErrors(t *testing.T) {
	for name, typ := range map[string]reflect.Type{
		"recursive":    reflect.TypeFor[recursive](),
		"not a struct": reflect.TypeFor[string](),
		"bad enum": reflect.TypeFor[struct {
			X bool `json:"x" enum:"a"`
		}](),
		"bad default": reflect.TypeFor[struct {
			X int `json:"x" default:"many"`
		}](),
		"bad min": reflect.TypeFor[struct {
			X bool `json:"x" min:"1"`
		}](),
		"bad flag": reflect.TypeFor[struct {
			X int `json:"x" jsonschema:"requird"`
		}](),
		"chan": reflect.TypeFor[struct {
			X chan int `json:"x"`
		}](),
		"max past a uint8": reflect.TypeFor[struct {
			X uint8 `json:"x" max:"256"`
		}](),
		"min past an int16": reflect.TypeFor[struct {
			X int16 `json:"x" min:"-32769"`
		}](),
	} {
		if s, err := InputSchema(typ); err == nil {
			t.Errorf("%s: no error, schema %s", name, s)
		}
	}
}

// A number is bounded by what its Go type holds, so that a value the schema
// admits always decodes: json.Unmarshal refuses 256 for a uint8.
func TestSchemaBoundsSizedNumbers(t *testing.T) {
	type args struct {
		U8  uint8   `json:"u8"`
		I16 int16   `json:"i16"`
		U32 uint32  `json:"u32" min:"1"`
		I64 int64   `json:"i64"`
		F32 float32 `json:"f32"`
		F64 float64 `json:"f64"`
	}
	s, err := InputSchema(reflect.TypeFor[args]())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"u8":{"type":"integer","minimum":0,"maximum":255}`,
		`"i16":{"type":"integer","minimum":-32768,"maximum":32767}`,
		`"u32":{"type":"integer","minimum":1,"maximum":4294967295}`,
		`"i64":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991}`,
		`"f32":{"type":"number","minimum":-3.4028234663852886e+38,"maximum":3.4028234663852886e+38}`,
		`"f64":{"type":"number"}`,
	} {
		if !strings.Contains(string(s), want) {
			t.Errorf("schema lacks %s:\n%s", want, s)
		}
	}
}
