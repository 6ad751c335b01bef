package juju

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jujutools/juju/sdk/abi"
)

// A JSON decoder and encoder for the shapes that cross the SDK on every
// call: structs of strings, integers, booleans, slices and pointers. Inside
// wasm, encoding/json costs about a microsecond a byte (its scanner calls a
// function for every byte, and Unmarshal scans twice); these loops look at
// the bytes themselves. What they do not know (a float, a map, a type with
// its own (Un)MarshalJSON, a surrogate escape, a name that only matches
// case-insensitively) they decline, and the caller falls back on
// encoding/json, so a result never differs from what encoding/json gives.

// maxFastDepth bounds nesting; deeper input is left to encoding/json.
const maxFastDepth = 64

var (
	jsonMarshalerType   = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// fastDecoder reads one JSON document. Every method returns false to
// decline: the input is not valid JSON, or it needs what the decoder does
// not do.
type fastDecoder struct {
	data   []byte
	i      int
	strict bool // an unknown key declines (arguments); else it is skipped
	depth  int
}

// unmarshalFast decodes data into v, a pointer, as json.Unmarshal would
// (unknown keys ignored). When it returns false, v may hold part of the
// data: decode into a fresh value, or fall back on a fresh one.
func unmarshalFast(data []byte, v any) bool {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false
	}
	d := fastDecoder{data: data}
	return d.value(rv.Elem(), codecOf(rv.Elem().Type())) && d.end()
}

// end reports whether only white space is left.
func (d *fastDecoder) end() bool {
	d.ws()
	return d.i == len(d.data)
}

func (d *fastDecoder) ws() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// next skips white space and returns the next byte (0 at the end).
func (d *fastDecoder) next() byte {
	d.ws()
	if d.i < len(d.data) {
		return d.data[d.i]
	}
	return 0
}

func (d *fastDecoder) literal(word string) bool {
	if !strings.HasPrefix(string(d.data[d.i:]), word) {
		return false
	}
	d.i += len(word)
	return true
}

// value decodes the next value into v, whose codec is k.
func (d *fastDecoder) value(v reflect.Value, k *codec) bool {
	c := d.next()
	t := v.Type()
	if t == rawMessageType {
		start := d.i
		if !d.skip() {
			return false
		}
		v.SetBytes(append([]byte(nil), d.data[start:d.i]...))
		return true
	}
	if !k.decode {
		return false
	}
	if c == 'n' {
		if !d.literal("null") {
			return false
		}
		switch v.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			v.SetZero()
		}
		return true
	}
	switch v.Kind() {
	case reflect.String:
		if c != '"' {
			return false
		}
		s, ok := d.str()
		v.SetString(s)
		return ok
	case reflect.Bool:
		switch {
		case d.literal("true"):
			v.SetBool(true)
		case d.literal("false"):
			v.SetBool(false)
		default:
			return false
		}
		return true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		lit, integer := d.number()
		if !integer {
			return false
		}
		n, ok := parseInt(lit)
		if !ok || v.OverflowInt(n) {
			return false
		}
		v.SetInt(n)
		return true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		lit, integer := d.number()
		if !integer || lit[0] == '-' {
			return false
		}
		n, ok := parseUint(lit)
		if !ok || v.OverflowUint(n) {
			return false
		}
		v.SetUint(n)
		return true
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return d.nested(func() bool { return d.value(v.Elem(), k.elem) })
	case reflect.Slice:
		if c != '[' {
			return false
		}
		return d.nested(func() bool { return d.slice(v, k.elem) })
	case reflect.Struct:
		if c != '{' {
			return false
		}
		return d.nested(func() bool { return d.object(v, k, nil) })
	case reflect.Map:
		if c != '{' {
			return false
		}
		return d.nested(func() bool { return d.mapObject(v, k) })
	}
	return false
}

// mapObject decodes an object into map v (string keys), whose codec is k:
// into a new map when v is nil, each value decoded into a fresh element, a
// repeated key's last value kept, as encoding/json does.
func (d *fastDecoder) mapObject(v reflect.Value, k *codec) bool {
	t := v.Type()
	if v.IsNil() {
		v.Set(reflect.MakeMap(t))
	}
	return d.members(func(key []byte, _ bool) bool {
		elem := reflect.New(t.Elem()).Elem()
		if !d.value(elem, k.elem) {
			return false
		}
		v.SetMapIndex(reflect.ValueOf(string(key)).Convert(t.Key()), elem)
		return true
	})
}

// members reads an object, calling member for each of its members with d
// at the value (white space skipped), which member must read. key is the
// member's key: its raw bytes when plain (no escape in it; they alias the
// input), else the key decoded. (object, the decoder of structs, has the
// same loop written out: it is the hot path, and inside wasm a call per
// member costs.)
func (d *fastDecoder) members(member func(key []byte, plain bool) bool) bool {
	if d.next() != '{' {
		return false
	}
	d.i++
	if d.next() == '}' {
		d.i++
		return true
	}
	for {
		if d.next() != '"' {
			return false
		}
		key, plain := d.rawKey()
		if !plain {
			s, ok := d.str()
			if !ok {
				return false
			}
			key = []byte(s)
		}
		if d.next() != ':' {
			return false
		}
		d.i++
		d.ws()
		if !member(key, plain) {
			return false
		}
		switch d.next() {
		case ',':
			d.i++
		case '}':
			d.i++
			return true
		default:
			return false
		}
	}
}

// elements reads an array one level down, calling elem with d at each
// element, which elem must read. Anything but an array declines (null
// included: encoding/json would leave a nil slice).
func (d *fastDecoder) elements(elem func() bool) bool {
	return d.nested(func() bool {
		if d.next() != '[' {
			return false
		}
		d.i++
		if d.next() == ']' {
			d.i++
			return true
		}
		for {
			if !elem() {
				return false
			}
			switch d.next() {
			case ',':
				d.i++
			case ']':
				d.i++
				return true
			default:
				return false
			}
		}
	})
}

func (d *fastDecoder) nested(f func() bool) bool {
	if d.depth >= maxFastDepth {
		return false
	}
	d.depth++
	ok := f()
	d.depth--
	return ok
}

// codec is what the fast paths know of a type, worked out once per type so
// that decoding and encoding a value look nothing up.
type codec struct {
	decode bool        // values may be decoded here
	encode bool        // values may be encoded here
	fields []fastField // structs
	elem   *codec      // pointers, slices
}

var codecs typeCache[*codec]

func codecOf(t reflect.Type) *codec {
	if c, ok := codecs.load(t); ok {
		return c
	}
	c := buildCodec(t, map[reflect.Type]*codec{})
	codecs.store(t, c)
	return c
}

// buildCodec works out t's codec; building holds the codecs being built,
// for recursive types.
func buildCodec(t reflect.Type, building map[reflect.Type]*codec) *codec {
	if c := building[t]; c != nil {
		return c
	}
	if c, ok := codecs.load(t); ok {
		return c
	}
	c := &codec{}
	building[t] = c
	pt := reflect.PointerTo(t)
	c.decode = !pt.Implements(jsonUnmarshalerType) && !pt.Implements(textUnmarshalerType)
	c.encode = !t.Implements(jsonMarshalerType) && !pt.Implements(jsonMarshalerType) &&
		!t.Implements(textMarshalerType) && !pt.Implements(textMarshalerType)
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
	case reflect.Interface:
		c.decode = false // encoded by its dynamic value
	case reflect.Pointer:
		c.elem = buildCodec(t.Elem(), building)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			c.decode, c.encode = false, false // base64
		} else {
			c.elem = buildCodec(t.Elem(), building)
		}
	case reflect.Map:
		// Decoded when its keys are plain strings; encoding/json sorts a
		// map's keys when it writes one, which the encoder leaves to it.
		c.encode = false
		if t.Key().Kind() != reflect.String || reflect.PointerTo(t.Key()).Implements(textUnmarshalerType) {
			c.decode = false
		} else {
			c.elem = buildCodec(t.Elem(), building)
		}
	case reflect.Struct:
		fs, ok := structFields(t)
		if !ok {
			c.decode, c.encode = false, false
		}
		c.fields = append([]fastField(nil), fs...)
		for i := range c.fields {
			c.fields[i].codec = buildCodec(t.FieldByIndex(c.fields[i].index).Type, building)
		}
	default:
		c.decode, c.encode = false, false
	}
	return c
}

func (d *fastDecoder) slice(v reflect.Value, k *codec) bool {
	d.i++ // [
	s := reflect.MakeSlice(v.Type(), 0, 0)
	if d.next() == ']' {
		d.i++
		v.Set(s)
		return true
	}
	zero := reflect.Zero(v.Type().Elem())
	for {
		s = reflect.Append(s, zero)
		if !d.value(s.Index(s.Len()-1), k) {
			return false
		}
		switch d.next() {
		case ',':
			d.i++
		case ']':
			d.i++
			v.Set(s)
			return true
		default:
			return false
		}
	}
}

// object decodes an object into struct v, whose codec is k. seen, when not
// nil, has one entry per field and is set for each field given a value
// other than null.
func (d *fastDecoder) object(v reflect.Value, k *codec, seen []bool) bool {
	fields := k.fields
	d.i++ // {
	if d.next() == '}' {
		d.i++
		return true
	}
	for {
		if d.next() != '"' {
			return false
		}
		raw, plainKey := d.rawKey()
		var key string
		if !plainKey {
			var ok bool
			if key, ok = d.str(); !ok {
				return false
			}
		}
		if d.next() != ':' {
			return false
		}
		d.i++
		f := -1
		for j := range fields {
			// string(raw) == name compares without allocating.
			if plainKey && string(raw) == fields[j].name || !plainKey && fields[j].name == key {
				f = j
				break
			}
		}
		if plainKey && f < 0 {
			key = string(raw)
		}
		switch {
		case f >= 0:
			if seen != nil {
				seen[f] = d.next() != 'n'
			}
			if !d.value(v.FieldByIndex(fields[f].index), fields[f].codec) {
				return false
			}
		case d.strict:
			return false
		default:
			for j := range fields {
				if strings.EqualFold(fields[j].name, key) {
					return false // encoding/json would match it
				}
			}
			if !d.nested(d.skip) {
				return false
			}
		}
		switch d.next() {
		case ',':
			d.i++
		case '}':
			d.i++
			return true
		default:
			return false
		}
	}
}

// rawKey reads a key made of plain ASCII (no escape), the common case,
// and returns its bytes without allocating; otherwise it reports false and
// leaves d where it was, for str.
func (d *fastDecoder) rawKey() ([]byte, bool) {
	data := d.data
	for i := d.i + 1; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			raw := data[d.i+1 : i]
			d.i = i + 1
			return raw, true
		case c == '\\' || c < 0x20 || c >= utf8.RuneSelf:
			return nil, false
		}
	}
	return nil, false
}

// str reads a string; d.data[d.i] is its opening quote.
func (d *fastDecoder) str() (string, bool) {
	s, end, ok := abi.ReadJSONString(d.data, d.i)
	d.i = end
	return s, ok
}

// parseUint reads lit, digits only, as strconv.ParseUint(lit, 10, 64)
// would, without the string and the error it allocates.
func parseUint(lit []byte) (uint64, bool) {
	var n uint64
	for _, c := range lit {
		if c < '0' || c > '9' || n > (1<<64-1)/10 {
			return 0, false
		}
		m := n*10 + uint64(c-'0')
		if m < n {
			return 0, false
		}
		n = m
	}
	return n, len(lit) > 0
}

// parseInt reads lit, an optional minus and digits, as
// strconv.ParseInt(lit, 10, 64) would.
func parseInt(lit []byte) (int64, bool) {
	neg := len(lit) > 0 && lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	u, ok := parseUint(lit)
	switch {
	case !ok:
		return 0, false
	case neg && u <= 1<<63:
		return -int64(u), true
	case !neg && u < 1<<63:
		return int64(u), true
	}
	return 0, false
}

// number reads a number and reports whether it is an integer literal. lit
// aliases the input.
func (d *fastDecoder) number() (lit []byte, integer bool) {
	start := d.i
	if d.i < len(d.data) && d.data[d.i] == '-' {
		d.i++
	}
	if !d.digits() {
		return nil, false
	}
	if d.data[start] == '0' || (d.data[start] == '-' && d.data[start+1] == '0') {
		if d.i-start > 1 && !(d.data[start] == '-' && d.i-start == 2) {
			return nil, false // a leading zero
		}
	}
	integer = true
	if d.i < len(d.data) && d.data[d.i] == '.' {
		d.i++
		if !d.digits() {
			return nil, false
		}
		integer = false
	}
	if d.i < len(d.data) && (d.data[d.i] == 'e' || d.data[d.i] == 'E') {
		d.i++
		if d.i < len(d.data) && (d.data[d.i] == '+' || d.data[d.i] == '-') {
			d.i++
		}
		if !d.digits() {
			return nil, false
		}
		integer = false
	}
	return d.data[start:d.i], integer
}

func (d *fastDecoder) digits() bool {
	start := d.i
	for d.i < len(d.data) && d.data[d.i] >= '0' && d.data[d.i] <= '9' {
		d.i++
	}
	return d.i > start
}

// skip reads one value of any kind, checking its syntax.
func (d *fastDecoder) skip() bool {
	switch c := d.next(); {
	case c == '"':
		_, ok := d.str()
		return ok
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		lit, _ := d.number()
		return lit != nil
	case c == '[':
		return d.elements(d.skip)
	case c == '{':
		d.i++
		if d.next() == '}' {
			d.i++
			return true
		}
		for {
			if d.next() != '"' {
				return false
			}
			if _, ok := d.str(); !ok || d.next() != ':' {
				return false
			}
			d.i++
			if !d.nested(d.skip) {
				return false
			}
			switch d.next() {
			case ',':
				d.i++
			case '}':
				d.i++
				return true
			default:
				return false
			}
		}
	}
	return false
}

// fastField is one property of a struct as encoding/json sees it.
type fastField struct {
	name      string
	key       []byte // "name": as encoding/json writes it
	index     []int
	omitEmpty bool
	codec     *codec
}

var structCache typeCache[[]fastField] // nil when declined

// structFields lists t's properties when both directions can handle them:
// names unique, no ",string" or ",omitzero" option, no embedded pointer.
func structFields(t reflect.Type) ([]fastField, bool) {
	if fs, ok := structCache.load(t); ok {
		return fs, fs != nil
	}
	fs := collectFastFields(t)
	structCache.store(t, fs)
	return fs, fs != nil
}

func collectFastFields(t reflect.Type) []fastField {
	if isTime(t) {
		return nil
	}
	infos, err := fieldsOf(t)
	if err != nil {
		return nil
	}
	out := make([]fastField, 0, len(infos))
	names := map[string]bool{}
	for _, f := range infos {
		_, opts, _ := strings.Cut(t.FieldByIndex(f.index).Tag.Get("json"), ",")
		if hasOpt(opts, "string") || hasOpt(opts, "omitzero") || names[f.name] || !validKey(f.name) {
			return nil
		}
		names[f.name] = true
		key := append(abi.AppendJSONString(nil, f.name, true), ':')
		out = append(out, fastField{name: f.name, key: key, index: f.index, omitEmpty: hasOpt(opts, "omitempty")})
	}
	return out
}

// validKey mirrors encoding/json's test of a tag name; a name it rejects
// makes encoding/json use the Go field name instead.
func validKey(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'):
			return false
		}
	}
	return true
}

// marshalFast encodes v as json.Marshal would, or reports false.
func marshalFast(v any) ([]byte, bool) {
	return marshalSpill(v, nil)
}

// marshalSpill is marshalFast that, when sp is not nil, leaves each string
// of spanMin bytes or more out of the JSON: an empty string stands in its
// place, and sp records a splice for it and keeps its bytes for the body.
// Splice offsets count from the start of the returned JSON.
func marshalSpill(v any, sp *body) ([]byte, bool) {
	if v == nil {
		return []byte("null"), true
	}
	rv := reflect.ValueOf(v)
	e := encoder{sp: sp}
	return e.appendValue(make([]byte, 0, 256), rv, codecOf(rv.Type()), 0)
}

// encoder holds what the encoding of one value shares.
type encoder struct {
	sp *body // nil: every string goes into the JSON
}

func (e *encoder) appendValue(b []byte, v reflect.Value, k *codec, depth int) ([]byte, bool) {
	if depth > maxFastDepth || !k.encode {
		return b, false
	}
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); e.sp != nil && len(s) >= spanMin {
			e.sp.splice(len(b), s)
			return append(b, `""`...), true
		}
		return abi.AppendJSONString(b, v.String(), true), true
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool()), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.AppendUint(b, v.Uint(), 10), true
	case reflect.Pointer:
		if v.IsNil() {
			return append(b, "null"...), true
		}
		return e.appendValue(b, v.Elem(), k.elem, depth+1)
	case reflect.Interface:
		if v.IsNil() {
			return append(b, "null"...), true
		}
		ev := v.Elem()
		return e.appendValue(b, ev, codecOf(ev.Type()), depth+1)
	case reflect.Slice:
		if v.IsNil() {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i := range v.Len() {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = e.appendValue(b, v.Index(i), k.elem, depth+1); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case reflect.Struct:
		fields := k.fields
		b = append(b, '{')
		first := true
		for i := range fields {
			f := &fields[i]
			fv := v.FieldByIndex(f.index)
			if f.omitEmpty && emptyValue(fv) {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, f.key...)
			var ok bool
			if b, ok = e.appendValue(b, fv, f.codec, depth+1); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return b, false
}

// emptyValue is encoding/json's test for omitempty.
func emptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}
