package juju

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
)

// schema is one JSON Schema node. Its fields are written in this order, and
// properties in the order of the Go struct, so generated schemas read well
// and diff cleanly.
type schema struct {
	Type                 any               `json:"type,omitempty"` // a string, or [type, "null"]
	Description          string            `json:"description,omitempty"`
	Format               string            `json:"format,omitempty"`
	ContentEncoding      string            `json:"contentEncoding,omitempty"`
	Enum                 []json.RawMessage `json:"enum,omitempty"`
	Default              json.RawMessage   `json:"default,omitempty"`
	Minimum              json.Number       `json:"minimum,omitempty"`
	Maximum              json.Number       `json:"maximum,omitempty"`
	MinLength            *int              `json:"minLength,omitempty"`
	MaxLength            *int              `json:"maxLength,omitempty"`
	MinItems             *int              `json:"minItems,omitempty"`
	MaxItems             *int              `json:"maxItems,omitempty"`
	Items                *schema           `json:"items,omitempty"`
	Properties           *properties       `json:"properties,omitempty"`
	Required             []string          `json:"required,omitempty"`
	AdditionalProperties any               `json:"additionalProperties,omitempty"` // false or a *schema
}

type property struct {
	name string
	s    *schema
}

// properties is a JSON object whose keys keep their order.
type properties []property

func (ps properties) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(p.name)
		v, err := json.Marshal(p.s)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// InputSchema returns the JSON Schema of a tool's arguments of type t, which
// must be a struct: unknown properties are not admitted and the fields
// tagged jsonschema:"required" are required.
func InputSchema(t reflect.Type) (json.RawMessage, error) {
	if !isObject(t) {
		return nil, fmt.Errorf("juju: the arguments type %s must be a struct", t)
	}
	return generate(t, true)
}

// OutputSchema returns the JSON Schema of structured content of type t,
// which must be a struct. Its top level requires nothing, so that the host
// can make it admit the error shape {code, message} as well; nested objects
// require the fields that are always present (those without omitempty).
// A slice, map or pointer field admits null (a nil value) unless it is
// tagged jsonschema:"required", a promise that it is never nil.
func OutputSchema(t reflect.Type) (json.RawMessage, error) {
	if !isObject(t) {
		return nil, fmt.Errorf("juju: the output type %s must be a struct", t)
	}
	return generate(t, false)
}

func generate(t reflect.Type, input bool) (json.RawMessage, error) {
	g := &generator{input: input, seen: map[reflect.Type]bool{}}
	s, err := g.of(t, true)
	if err != nil {
		return nil, fmt.Errorf("juju: schema of %s: %w", t, err)
	}
	return json.Marshal(s)
}

type generator struct {
	input bool
	seen  map[reflect.Type]bool // structs being described, to refuse recursion
}

func (g *generator) of(t reflect.Type, top bool) (*schema, error) {
	t = deref(t)
	switch {
	case t == rawMessageType, t.Kind() == reflect.Interface:
		return &schema{}, nil
	case isTime(t):
		return &schema{Type: "string", Format: "date-time"}, nil
	case reflect.PointerTo(t).Implements(textMarshalerType):
		return &schema{Type: "string"}, nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return &schema{Type: "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return &schema{Type: "integer"}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &schema{Type: "integer", Minimum: "0"}, nil
	case reflect.Float32, reflect.Float64:
		return &schema{Type: "number"}, nil
	case reflect.String:
		return &schema{Type: "string"}, nil
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			return &schema{Type: "string", ContentEncoding: "base64"}, nil
		}
		items, err := g.of(t.Elem(), false)
		if err != nil {
			return nil, err
		}
		s := &schema{Type: "array", Items: items}
		if t.Kind() == reflect.Array {
			n := t.Len()
			s.MinItems, s.MaxItems = &n, &n
		}
		return s, nil
	case reflect.Map:
		if k := t.Key().Kind(); k != reflect.String && !isNumber(k) && !t.Key().Implements(textMarshalerType) {
			return nil, fmt.Errorf("map key type %s cannot be a JSON object key", t.Key())
		}
		v, err := g.of(t.Elem(), false)
		if err != nil {
			return nil, err
		}
		return &schema{Type: "object", AdditionalProperties: v}, nil
	case reflect.Struct:
		return g.object(t, top)
	}
	return nil, fmt.Errorf("type %s has no JSON Schema", t)
}

func (g *generator) object(t reflect.Type, top bool) (*schema, error) {
	if g.seen[t] {
		return nil, fmt.Errorf("recursive type %s is not supported", t)
	}
	g.seen[t] = true
	defer delete(g.seen, t)
	fields, err := fieldsOf(t)
	if err != nil {
		return nil, err
	}
	s := &schema{Type: "object", Properties: &properties{}}
	for i := range fields {
		f := &fields[i]
		if f.noSchema {
			if g.input {
				return nil, fmt.Errorf("field %s: jsonschema:\"-\" is for output types only", f.name)
			}
			continue
		}
		fs, err := g.of(f.typ, false)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.name, err)
		}
		g.constrain(fs, f)
		*s.Properties = append(*s.Properties, property{f.name, fs})
		switch {
		case g.input && f.required:
			s.Required = append(s.Required, f.name)
		case !g.input && !top && (!f.omitEmpty || f.required):
			s.Required = append(s.Required, f.name)
		}
	}
	if g.input {
		s.AdditionalProperties = false
	}
	return s, nil
}

// constrain adds what the field's tags say to its schema.
func (g *generator) constrain(s *schema, f *fieldInfo) {
	s.Description = f.desc
	s.Enum = f.enum
	s.Default = f.def
	if typ, ok := s.Type.(string); ok && !g.input && !f.omitEmpty && !f.required && nullable(f.typ) {
		// encoding/json writes a nil slice, map or pointer as null; a field
		// tagged required promises a value.
		s.Type = []string{typ, "null"}
	}
	n := func(v json.Number) *int {
		i, _ := strconv.Atoi(string(v))
		return &i
	}
	switch k := deref(f.typ).Kind(); {
	case f.min == "" && f.max == "":
	case isNumber(k):
		if f.min != "" && (g.input || !f.safeMin) {
			s.Minimum = f.min
		}
		if f.max != "" && (g.input || !f.safeMax) {
			s.Maximum = f.max
		}
	case k == reflect.String:
		if f.min != "" {
			s.MinLength = n(f.min)
		}
		if f.max != "" {
			s.MaxLength = n(f.max)
		}
	default:
		if f.min != "" {
			s.MinItems = n(f.min)
		}
		if f.max != "" {
			s.MaxItems = n(f.max)
		}
	}
}

func nullable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Map, reflect.Pointer:
		return t != rawMessageType
	}
	return false
}
