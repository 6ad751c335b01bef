package visible

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits bound a rendering of arguments. The zero Limits bounds nothing:
// every key, element and character shows.
type Limits struct {
	String int // characters of one string value; a longer one is cut and its size said: "abc…" (5000 bytes)
	List   int // elements of one array; the others are counted: … 2 more
	Total  int // characters of the whole rendering (see Clip)
}

// notJSON introduces arguments that do not parse as JSON.
const notJSON = "(arguments that are not JSON) "

// plainKey is a key shown without quotes; any other key is quoted, so a
// key cannot pass for more of the object.
var plainKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Args renders a call's JSON arguments on one line, for the owner's
// prompt, the approvals list and the audit: {command: "make test",
// timeoutMs: 5000}. Keys are sorted; each string is quoted and made
// visible (Quote), numbers show as sent; within lim nothing is cut.
func Args(raw []byte, lim Limits) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "{}"
	}
	v, err := decode(raw)
	var b strings.Builder
	if err != nil {
		b.WriteString(notJSON)
		writeString(&b, string(raw), lim)
	} else {
		writeValue(&b, v, lim)
	}
	s := b.String()
	if lim.Total > 0 {
		s, _ = Clip(s, lim.Total)
	}
	return s
}

// decode parses one JSON value, numbers kept as written.
func decode(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errTrailing
	}
	return v, nil
}

var errTrailing = errors.New("data after the JSON value")

// writeValue renders v; past four times lim.Total bytes it stops, since
// Clip cuts there anyway.
func writeValue(b *strings.Builder, v any, lim Limits) {
	if lim.Total > 0 && b.Len() > 4*lim.Total {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			if plainKey.MatchString(k) {
				b.WriteString(k)
			} else {
				b.WriteString(Quote(k))
			}
			b.WriteString(": ")
			writeValue(b, x[k], lim)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			if lim.List > 0 && i == lim.List {
				b.WriteString(Ellipsis + " " + strconv.Itoa(len(x)-i) + " more")
				break
			}
			writeValue(b, e, lim)
		}
		b.WriteByte(']')
	case string:
		writeString(b, x, lim)
	case json.Number:
		b.WriteString(x.String())
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case nil:
		b.WriteString("null")
	}
}

// writeString renders a string value, cut to lim.String characters.
func writeString(b *strings.Builder, s string, lim Limits) {
	if lim.String <= 0 || utf8.RuneCountInString(s) <= lim.String {
		b.WriteString(Quote(s))
		return
	}
	cut := 0
	for range lim.String - 1 {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
	}
	b.WriteByte('"')
	write(b, s[:cut], true)
	b.WriteString(Ellipsis + `" (` + strconv.Itoa(len(s)) + " bytes)")
}
