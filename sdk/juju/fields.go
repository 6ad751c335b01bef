package juju

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// fieldInfo is one JSON property of a struct, with the constraints its tags
// declare. Schema generation and argument checking both read it, so the two
// never disagree.
type fieldInfo struct {
	name      string
	index     []int
	typ       reflect.Type
	tagged    bool // named by its json tag
	omitEmpty bool
	required  bool
	noSchema  bool // jsonschema:"-": left out of output schemas
	desc      string
	enum      []json.RawMessage
	def       json.RawMessage
	min, max  json.Number

	// Decoded once, for checking decoded values without JSON.
	enumVals []any         // string or float64, as json.Unmarshal into any gives
	defVal   reflect.Value // the default as a value of typ; invalid when none
	lo, hi   *float64      // min and max
	// safeMin, safeMax: an integer field given no min or max by its tags
	// is bounded by ±MaxSafeInteger as an argument (its input schema and
	// its check), not in output schemas.
	safeMin, safeMax bool
}

// MaxSafeInteger bounds an integer argument that its tags do not bound
// (2^53-1, JavaScript's Number.MAX_SAFE_INTEGER): past it a JSON number
// read as a float64, as most clients and juju's own reader do, is no
// longer the integer written (2^63 reads as 9223372036854775808 rounded),
// and an offset of 2^32+1 read by a 32-bit program is 1.
const MaxSafeInteger = 1<<53 - 1

// fieldsOrError is what fieldCache holds for a type.
type fieldsOrError struct {
	fields []fieldInfo
	err    error
}

var fieldCache typeCache[fieldsOrError]

// fieldsOf lists the JSON properties of struct type t in declaration order,
// inlining embedded structs as encoding/json does: a field of an embedded
// struct is hidden by a field of the same name nearer the top.
func fieldsOf(t reflect.Type) ([]fieldInfo, error) {
	if v, ok := fieldCache.load(t); ok {
		return v.fields, v.err
	}
	fs, err := collectFields(t, nil)
	if err != nil {
		fieldCache.store(t, fieldsOrError{err: err})
		return nil, err
	}
	fs = dominant(fs)
	fieldCache.store(t, fieldsOrError{fields: fs})
	return fs, nil
}

func collectFields(t reflect.Type, prefix []int) ([]fieldInfo, error) {
	var out []fieldInfo
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		index := append(append([]int(nil), prefix...), i)
		if sf.Anonymous && name == "" {
			et := sf.Type
			if et.Kind() == reflect.Pointer {
				return nil, fmt.Errorf("%s: embedded pointer %s is not supported; embed the struct itself", t, sf.Name)
			}
			if et.Kind() == reflect.Struct {
				inner, err := collectFields(et, index)
				if err != nil {
					return nil, err
				}
				out = append(out, inner...)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		tagged := name != ""
		if !tagged {
			name = sf.Name
		}
		f := fieldInfo{
			name:      name,
			index:     index,
			tagged:    tagged,
			typ:       sf.Type,
			omitEmpty: hasOpt(opts, "omitempty") || hasOpt(opts, "omitzero"),
			desc:      sf.Tag.Get("desc"),
		}
		if err := f.parseTags(sf.Tag); err != nil {
			return nil, fmt.Errorf("%s.%s: %w", t, sf.Name, err)
		}
		out = append(out, f)
	}
	return out, nil
}

// dominant keeps, of the fields that share a name, the one encoding/json
// uses: the shallowest, then of those the one named by a json tag; when
// that leaves more than one, none. The fields keep their order.
func dominant(fs []fieldInfo) []fieldInfo {
	depth := map[string]int{}
	for _, f := range fs {
		if d, ok := depth[f.name]; !ok || len(f.index) < d {
			depth[f.name] = len(f.index)
		}
	}
	if len(depth) == len(fs) {
		return fs // no name is shared
	}
	candidates := map[string][]int{}
	for i, f := range fs {
		if len(f.index) == depth[f.name] {
			candidates[f.name] = append(candidates[f.name], i)
		}
	}
	keep := make([]bool, len(fs))
	for _, c := range candidates {
		if len(c) > 1 {
			var tagged []int
			for _, i := range c {
				if fs[i].tagged {
					tagged = append(tagged, i)
				}
			}
			c = tagged
		}
		if len(c) == 1 {
			keep[c[0]] = true
		}
	}
	var out []fieldInfo
	for i, f := range fs {
		if keep[i] {
			out = append(out, f)
		}
	}
	return out
}

func hasOpt(opts, want string) bool {
	for _, o := range strings.Split(opts, ",") {
		if o == want {
			return true
		}
	}
	return false
}

func (f *fieldInfo) parseTags(tag reflect.StructTag) error {
	for _, flag := range strings.Split(tag.Get("jsonschema"), ",") {
		switch flag {
		case "":
		case "required":
			f.required = true
		case "-":
			f.noSchema = true
		default:
			return fmt.Errorf("unknown jsonschema tag option %q", flag)
		}
	}
	base := deref(f.typ)
	if s, ok := tag.Lookup("enum"); ok {
		if base.Kind() != reflect.String && !isNumber(base.Kind()) {
			return fmt.Errorf("enum needs a string or number field, not %s", base)
		}
		for _, v := range strings.Split(s, ",") {
			raw, err := literal(base, v)
			if err != nil {
				return fmt.Errorf("enum value %q: %w", v, err)
			}
			var v any
			json.Unmarshal(raw, &v)
			f.enum = append(f.enum, raw)
			f.enumVals = append(f.enumVals, v)
		}
	}
	if s, ok := tag.Lookup("default"); ok {
		raw, err := literal(f.typ, s)
		if err != nil {
			return fmt.Errorf("default %q: %w", s, err)
		}
		f.def = raw
		f.defVal = reflect.New(f.typ).Elem()
		json.Unmarshal(raw, f.defVal.Addr().Interface())
	}
	for _, b := range []struct {
		key string
		dst *json.Number
		num **float64
	}{{"min", &f.min, &f.lo}, {"max", &f.max, &f.hi}} {
		s, ok := tag.Lookup(b.key)
		if !ok {
			continue
		}
		switch {
		case isNumber(base.Kind()):
			if _, err := strconv.ParseFloat(s, 64); err != nil {
				return fmt.Errorf("%s %q is not a number", b.key, s)
			}
		case base.Kind() == reflect.String, base.Kind() == reflect.Slice:
			if n, err := strconv.Atoi(s); err != nil || n < 0 {
				return fmt.Errorf("%s %q must be a non-negative integer for a %s", b.key, s, base.Kind())
			}
		default:
			return fmt.Errorf("%s does not apply to %s", b.key, base)
		}
		n, _ := strconv.ParseFloat(s, 64)
		*b.dst, *b.num = json.Number(s), &n
	}
	if lo, hi, ok := kindRange(base.Kind()); ok {
		// A number past what the Go type holds would pass the schema and
		// then fail the SDK's decoding: json.Unmarshal refuses 300 for a
		// uint8. A tag past it is the author's mistake, said at build.
		if f.hi != nil && *f.hi > hi {
			return fmt.Errorf("max %s is more than a %s holds (%s)", f.max, base.Kind(), formatBound(hi))
		}
		if f.lo != nil && *f.lo < lo {
			return fmt.Errorf("min %s is less than a %s holds (%s)", f.min, base.Kind(), formatBound(lo))
		}
		if f.hi == nil {
			f.max, f.hi, f.safeMax = json.Number(formatBound(hi)), &hi, true
		}
		if f.lo == nil {
			f.min, f.lo, f.safeMin = json.Number(formatBound(lo)), &lo, true
		}
	}
	return nil
}

// kindRange is the range of numbers a Go kind decodes from JSON, an
// integer's within ±MaxSafeInteger; ok is false for a kind that is not a
// bounded number (float64, which holds every JSON number Go decodes).
func kindRange(k reflect.Kind) (lo, hi float64, ok bool) {
	switch k {
	case reflect.Int8:
		return math.MinInt8, math.MaxInt8, true
	case reflect.Int16:
		return math.MinInt16, math.MaxInt16, true
	case reflect.Int32:
		return math.MinInt32, math.MaxInt32, true
	case reflect.Int, reflect.Int64:
		return -MaxSafeInteger, MaxSafeInteger, true
	case reflect.Uint8:
		return 0, math.MaxUint8, true
	case reflect.Uint16:
		return 0, math.MaxUint16, true
	case reflect.Uint32:
		return 0, math.MaxUint32, true
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return 0, MaxSafeInteger, true
	case reflect.Float32:
		return -math.MaxFloat32, math.MaxFloat32, true
	}
	return 0, 0, false
}

// formatBound writes a bound as a JSON number: an integer in full, a
// float32's limit exactly.
func formatBound(v float64) string {
	if math.Abs(v) < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func isInteger(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Int64 || k >= reflect.Uint && k <= reflect.Uint64
}

// literal turns a tag's text into the JSON value of type t: strings are
// taken as they are, anything else must be JSON that decodes into t.
func literal(t reflect.Type, s string) (json.RawMessage, error) {
	if deref(t).Kind() == reflect.String {
		return json.Marshal(s)
	}
	raw := json.RawMessage(s)
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(reflect.New(t).Interface()); err != nil {
		return nil, fmt.Errorf("not a valid %s: %v", t, err)
	}
	return raw, nil
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func isNumber(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

var (
	rawMessageType    = reflect.TypeFor[json.RawMessage]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// isTime reports whether t is time.Time, named rather than taken as a
// reflect.Type, which would keep all of time.Time's methods.
func isTime(t reflect.Type) bool { return t.PkgPath() == "time" && t.Name() == "Time" }

// isObject reports whether t (dereferenced) is a struct described property
// by property.
func isObject(t reflect.Type) bool {
	t = deref(t)
	return t.Kind() == reflect.Struct && !isTime(t) && !reflect.PointerTo(t).Implements(textMarshalerType)
}
