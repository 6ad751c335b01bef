package juju

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
)

// decodeArgs fills *v (a struct holding its zero value) from a tool's JSON
// arguments: defaults first, then the arguments, decoded strictly, then the
// constraints of the fields' tags. Every problem is an INVALID_ARGUMENT error whose message
// names the argument and what to fix.
//
// JSON is the costly part inside wasm, so the arguments are read in one
// pass: each top-level key is matched exactly (encoding/json alone would
// match "Path" to "path") and its value decoded straight into its field.
// Only a rare doubt (a required nested field holding its zero value, which
// may mean it was not given) has the raw JSON walked again.
func decodeArgs(tool string, raw json.RawMessage, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	c := checker{tool: tool}
	if raw[0] != '{' {
		return c.fail("the arguments of %s must be a JSON object", tool)
	}
	rv := reflect.ValueOf(v).Elem()
	fields, err := fieldsOf(rv.Type())
	if err != nil {
		return Errorf(abi.Internal, "the tool %s has a bad arguments type; tell the plugin's author", tool)
	}
	if err := applyDefaults(rv); err != nil {
		return Errorf(abi.Internal, "the tool %s has a bad arguments type; tell the plugin's author", tool)
	}
	seen, ok := decodeTopFast(raw, rv)
	if !ok {
		// The fast decoder may have set some fields before it declined:
		// decodeTop starts again from the defaults.
		rv.SetZero()
		if err := applyDefaults(rv); err != nil {
			return Errorf(abi.Internal, "the tool %s has a bad arguments type; tell the plugin's author", tool)
		}
		if seen, err = c.decodeTop(raw, rv, fields); err != nil {
			return err
		}
	}
	for i := range fields {
		f := &fields[i]
		if f.required && !seen[i] {
			return c.fail("the argument %s is required by %s; %s", quote(f.name), tool, describeField(f))
		}
	}
	err = c.values(rv, "", seen)
	if errors.Is(err, errMaybeMissing) {
		err = c.object(raw, rv.Type(), "")
	}
	return err
}

// decodeTop reads the top-level object raw into rv, key by key, and reports
// which fields were given.
func (c checker) decodeTop(raw json.RawMessage, rv reflect.Value, fields []fieldInfo) ([]bool, error) {
	invalid := c.fail("the arguments of %s are not valid JSON; send one JSON object", c.tool)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if _, err := dec.Token(); err != nil { // the opening brace
		return nil, invalid
	}
	seen := make([]bool, len(fields))
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, invalid
		}
		key, _ := tok.(string)
		i := fieldIndex(fields, key)
		if i < 0 {
			names := make([]string, len(fields))
			for j := range fields {
				names[j] = fields[j].name
			}
			return nil, c.unknown(key, "", names)
		}
		start := dec.InputOffset()
		if err := dec.Decode(rv.FieldByIndex(fields[i].index).Addr().Interface()); err != nil {
			return nil, c.decodeError(key, err, raw, rv.Type())
		}
		// null counts as not given (encoding/json leaves the field as it was).
		value := bytes.TrimLeft(raw[start:dec.InputOffset()], ": \t\r\n")
		seen[i] = !bytes.Equal(value, []byte("null"))
	}
	if _, err := dec.Token(); err != nil || dec.InputOffset() != int64(len(raw)) {
		return nil, invalid
	}
	return seen, nil
}

// decodeTopFast is decodeTop for arguments the fast decoder accepts. When
// it declines, it may have set some of rv's fields.
func decodeTopFast(raw json.RawMessage, rv reflect.Value) ([]bool, bool) {
	k := codecOf(rv.Type())
	if !k.decode {
		return nil, false
	}
	seen := make([]bool, len(k.fields))
	d := fastDecoder{data: raw, strict: true}
	if d.next() != '{' || !d.object(rv, k, seen) || !d.end() {
		return nil, false
	}
	return seen, true
}

func fieldIndex(fields []fieldInfo, name string) int {
	for i := range fields {
		if fields[i].name == name {
			return i
		}
	}
	return -1
}

// applyDefaults sets every field that has a default, recursing into nested
// structs so that an object given without some of its fields keeps theirs.
func applyDefaults(rv reflect.Value) error {
	fields, err := fieldsOf(rv.Type())
	if err != nil {
		return err
	}
	for i := range fields {
		f := &fields[i]
		fv := rv.FieldByIndex(f.index)
		switch {
		case f.defVal.IsValid() && shares(fv.Kind()):
			// A pointer, slice or map default copied would be shared by
			// every call: the arguments decode through it (false into
			// the *bool of a default true), and the next call without
			// the argument would get what the last one gave.
			fv.SetZero()
			json.Unmarshal(f.def, fv.Addr().Interface())
		case f.defVal.IsValid():
			fv.Set(f.defVal)
		case fv.Kind() == reflect.Struct && isObject(fv.Type()):
			if err := applyDefaults(fv); err != nil {
				return err
			}
		}
	}
	return nil
}

// shares reports whether a value of kind k copied refers to the same
// memory as the original.
func shares(k reflect.Kind) bool {
	return k == reflect.Pointer || k == reflect.Slice || k == reflect.Map || k == reflect.Interface
}

// decodeError explains why the value of top-level argument key did not
// decode: a wrong type, an unknown nested property (found by walking raw),
// or JSON that is not valid.
func (c checker) decodeError(key string, err error, raw json.RawMessage, t reflect.Type) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		// A number past what its Go type holds (300 for a uint8) is a
		// number of the right kind out of range, not a wrong type.
		if num, ok := strings.CutPrefix(te.Value, "number "); ok {
			v, perr := strconv.ParseFloat(num, 64)
			if lo, hi, ok := kindRange(deref(te.Type).Kind()); ok && (perr != nil || v < lo || v > hi) {
				return c.fail("the argument %s must be from %s to %s (got %s)", quote(join(key, te.Field)), formatBound(lo), formatBound(hi), shownNumber(num))
			}
			return c.fail("the argument %s must be %s, not number %s", quote(join(key, te.Field)), jsonKind(te.Type), shownNumber(num))
		}
		return c.fail("the argument %s must be %s, not %s", quote(join(key, te.Field)), jsonKind(te.Type), te.Value)
	}
	if !json.Valid(raw) {
		return c.fail("the arguments of %s are not valid JSON; send one JSON object", c.tool)
	}
	if err := c.object(raw, t, ""); err != nil {
		return err
	}
	return c.fail("the argument %s could not be decoded: %v", quote(key), err)
}

// shownNumber is a number's JSON text as a message echoes it: as sent when
// short, else, when it is an integer a float64 holds, as abi.Number writes
// it (1e+308, not 309 digits), or else its start and length (a fraction
// rounded to a float64 could read 1, an integer): the text is the
// client's, of any length.
func shownNumber(text string) string {
	if len(text) <= 24 {
		return text
	}
	if v, err := strconv.ParseFloat(text, 64); err == nil && !strings.Contains(text, ".") {
		return abi.Number(v)
	}
	return text[:16] + "… (a number of " + strconv.Itoa(len(text)) + " characters)"
}

func jsonKind(t reflect.Type) string {
	t = deref(t)
	switch {
	case t.Kind() == reflect.Bool:
		return "a boolean"
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		return "a number"
	case isNumber(t.Kind()):
		return "an integer"
	case t.Kind() == reflect.String, t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		return "a string"
	case t.Kind() == reflect.Slice, t.Kind() == reflect.Array:
		return "an array"
	}
	return "an object"
}
