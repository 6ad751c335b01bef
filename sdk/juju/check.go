package juju

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jujutools/juju/sdk/abi"
)

// checker checks arguments against the constraints of their Go type's tags,
// in two ways: values walks the decoded struct (no JSON: the usual case),
// object walks the raw JSON (to explain a failed decode, and to tell a
// missing required argument from one given with its zero value).
type checker struct{ tool string }

// errMaybeMissing is what values returns when a required field holds its
// zero value: only the raw JSON can tell whether it was given.
var errMaybeMissing = errors.New("a required argument may be missing")

func (c checker) fail(format string, args ...any) error {
	return Errorf(abi.InvalidArgument, format, args...)
}

// values checks the decoded struct rv. seen tells which fields were given
// (nil when unknown, for nested objects): a field not given keeps its
// default and is not checked. Where it is unknown, a zero value that is
// required or breaks a constraint may be an absent field, and only the raw
// JSON can tell: values then returns errMaybeMissing.
func (c checker) values(rv reflect.Value, at string, seen []bool) error {
	fields, err := fieldsOf(rv.Type())
	if err != nil {
		return err
	}
	for i := range fields {
		f := &fields[i]
		if seen != nil && !seen[i] {
			continue
		}
		fv := rv.FieldByIndex(f.index)
		err := c.value(fv, f, join(at, f.name))
		if seen == nil && fv.IsZero() && (f.required || err != nil) {
			return errMaybeMissing
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// value checks one decoded value: its own constraints (f, when it is a
// field) and what it holds.
func (c checker) value(v reflect.Value, f *fieldInfo, at string) error {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if f != nil {
		if err := c.constrain(v, f, at); err != nil {
			return err
		}
	}
	switch {
	case isObject(v.Type()):
		return c.values(v, at, nil)
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() != reflect.Uint8, v.Kind() == reflect.Array:
		if scalar(v.Type().Elem()) {
			return nil // items without a field hold no constraint of their own
		}
		for i := 0; i < v.Len(); i++ {
			if err := c.value(v.Index(i), nil, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	case v.Kind() == reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		for _, k := range keys {
			if err := c.value(v.MapIndex(k), nil, join(at, fmt.Sprint(k))); err != nil {
				return err
			}
		}
	}
	return nil
}

// scalar reports whether values of t hold nothing value would check
// inside them: a string, a number or a bool.
func scalar(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// constrain checks a decoded value against f's enum, min and max.
func (c checker) constrain(v reflect.Value, f *fieldInfo, at string) error {
	var n float64
	var got any
	switch k := v.Kind(); {
	case k == reflect.String:
		n = float64(utf8.RuneCountInString(v.String()))
		if len(f.enumVals) > 0 {
			got = v.String()
		}
	case k >= reflect.Int && k <= reflect.Int64:
		n = float64(v.Int())
		got = n
	case k >= reflect.Uint && k <= reflect.Uint64:
		n = float64(v.Uint())
		got = n
	case k == reflect.Float32 || k == reflect.Float64:
		n = v.Float()
		got = n
	case k == reflect.Slice || k == reflect.Array:
		n = float64(v.Len())
	default:
		return nil
	}
	if len(f.enumVals) > 0 && !containsValue(f.enumVals, got) {
		shown, _ := json.Marshal(got)
		return c.fail("the argument %s must be one of %s, not %s", quote(at), enumList(f.enum), shown)
	}
	return c.bound(f, at, n, v.Kind())
}

// bound checks n (a number, the length of a string or a count of items)
// against f's min and max.
func (c checker) bound(f *fieldInfo, at string, n float64, k reflect.Kind) error {
	least, most := "be at least %s", "be at most %s"
	switch k {
	case reflect.String:
		least, most = "be at least %s characters long", "be at most %s characters long"
	case reflect.Slice, reflect.Array:
		least, most = "have at least %s items", "have at most %s items"
	}
	got := func() string { return abi.Number(n) }
	if f.lo != nil && n < *f.lo {
		return c.fail("the argument %s must "+least+" (got %s)", quote(at), f.min, got())
	}
	if f.hi != nil && n > *f.hi {
		return c.fail("the argument %s must "+most+" (got %s)", quote(at), f.max, got())
	}
	return nil
}

// object checks the raw JSON object raw against struct type t.
func (c checker) object(raw json.RawMessage, t reflect.Type, at string) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil // not an object: the decoder says so
	}
	fields, err := fieldsOf(deref(t))
	if err != nil {
		return Errorf(abi.Internal, "the tool %s has a bad arguments type; tell the plugin's author", c.tool)
	}
	byName := make(map[string]*fieldInfo, len(fields))
	names := make([]string, len(fields))
	for i := range fields {
		byName[fields[i].name] = &fields[i]
		names[i] = fields[i].name
	}
	for _, k := range sortedKeys(m) {
		if _, ok := byName[k]; !ok {
			return c.unknown(k, at, names)
		}
	}
	for i := range fields {
		f := &fields[i]
		v, ok := m[f.name]
		if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			if f.required {
				return c.fail("the argument %s is required by %s; %s", quote(join(at, f.name)), c.tool, describeField(f))
			}
			continue
		}
		if err := c.raw(v, f.typ, f, join(at, f.name)); err != nil {
			return err
		}
	}
	return nil
}

func (c checker) unknown(k, at string, names []string) error {
	hint := ""
	for _, n := range names {
		if strings.EqualFold(n, k) {
			hint = fmt.Sprintf(" (did you mean %q?)", n)
		}
	}
	where := c.tool + " takes"
	if at != "" {
		where = quote(at) + " takes"
	}
	if len(names) == 0 {
		return c.fail("unknown argument %s%s: %s no arguments", quote(join(at, k)), hint, where)
	}
	return c.fail("unknown argument %s%s; %s only: %s", quote(join(at, k)), hint, where, strings.Join(names, ", "))
}

// raw checks one raw JSON value of Go type t. Values of the wrong JSON type
// are left to the decoder, which says so.
func (c checker) raw(raw json.RawMessage, t reflect.Type, f *fieldInfo, at string) error {
	if f != nil {
		v := reflect.New(deref(t))
		if json.Unmarshal(raw, v.Interface()) == nil {
			if err := c.constrain(v.Elem(), f, at); err != nil {
				return err
			}
		}
	}
	t = deref(t)
	switch {
	case isObject(t):
		return c.object(raw, t, at)
	case t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8, t.Kind() == reflect.Array:
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil
		}
		for i, it := range items {
			if err := c.raw(it, t.Elem(), nil, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.Map:
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return nil
		}
		for _, k := range sortedKeys(m) {
			if err := c.raw(m[k], t.Elem(), nil, join(at, k)); err != nil {
				return err
			}
		}
	}
	return nil
}

// describeField says, for a missing argument, what it is.
func describeField(f *fieldInfo) string {
	if f.desc != "" {
		return "it is: " + f.desc
	}
	return "give it and call again"
}

func containsValue(vals []any, v any) bool {
	for _, w := range vals {
		if v == w {
			return true
		}
	}
	return false
}

func enumList(enum []json.RawMessage) string {
	parts := make([]string, len(enum))
	for i, e := range enum {
		parts[i] = string(e)
	}
	return strings.Join(parts, ", ")
}

func join(at, name string) string {
	switch {
	case at == "":
		return name
	case name == "":
		return at
	}
	return at + "." + name
}

func quote(s string) string { return strconv.Quote(s) }

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
