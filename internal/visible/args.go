package visible

import (
	"bytes"
	"encoding/json"
	"slices"
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

// Args renders a call's JSON arguments on one line, for the owner's
// prompt, the approvals list and the audit: {command: "make test",
// timeoutMs: 5000}. Keys are sorted (of a key given twice, the last
// counts, as when the arguments are decoded); each string is quoted and
// made visible (Quote), numbers show as sent; within lim nothing is cut.
//
// It renders straight from the JSON text, with no decoded tree: every
// call is audited, and decoding a tiny call's arguments with
// encoding/json cost as much as a tenth of the call.
func Args(raw []byte, lim Limits) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return "{}"
	}
	var b strings.Builder
	b.Grow(min(len(raw), 4*max(lim.Total, 64)) + 16)
	if !json.Valid(raw) {
		b.WriteString(notJSON)
		writeString(&b, string(raw), lim)
	} else {
		r := renderer{raw: raw, lim: lim, b: &b}
		r.value(r.skip(0))
	}
	s := b.String()
	if lim.Total > 0 {
		s, _ = Clip(s, lim.Total)
	}
	return s
}

// renderer writes a JSON text that json.Valid accepted.
type renderer struct {
	raw []byte
	lim Limits
	b   *strings.Builder
}

// member is an object's key and where its value starts.
type member struct {
	key string
	at  int
}

// value renders the value at i and returns where it ends. Past four times
// lim.Total bytes of output it only skips, since Clip cuts there anyway.
func (r *renderer) value(i int) int {
	if r.lim.Total > 0 && r.b.Len() > 4*r.lim.Total {
		return r.end(i)
	}
	b := r.b
	switch r.raw[i] {
	case '{':
		var small [8]member
		members := small[:0]
		i = r.skip(i + 1)
		for r.raw[i] != '}' {
			k, next := r.str(i)
			at := r.skip(r.skip(next) + 1) // past the colon
			members = append(members, member{k, at})
			i = r.skip(r.end(at))
			if r.raw[i] == ',' {
				i = r.skip(i + 1)
			}
		}
		// Sorted by key; of equal keys the last given counts.
		slices.SortStableFunc(members, func(x, y member) int { return strings.Compare(x.key, y.key) })
		b.WriteByte('{')
		n := 0
		for j, m := range members {
			if j+1 < len(members) && members[j+1].key == m.key {
				continue
			}
			if n > 0 {
				b.WriteString(", ")
			}
			n++
			if plain(m.key) {
				b.WriteString(m.key)
			} else {
				b.WriteString(Quote(m.key))
			}
			b.WriteString(": ")
			r.value(m.at)
		}
		b.WriteByte('}')
		return i + 1
	case '[':
		b.WriteByte('[')
		i = r.skip(i + 1)
		for n := 0; r.raw[i] != ']'; n++ {
			if r.lim.List > 0 && n == r.lim.List {
				more := 0
				for r.raw[i] != ']' {
					i = r.skip(r.end(i))
					if r.raw[i] == ',' {
						i = r.skip(i + 1)
					}
					more++
				}
				b.WriteString(", " + Ellipsis + " " + strconv.Itoa(more) + " more")
				break
			}
			if n > 0 {
				b.WriteString(", ")
			}
			i = r.skip(r.value(i))
			if r.raw[i] == ',' {
				i = r.skip(i + 1)
			}
		}
		b.WriteByte(']')
		return i + 1
	case '"':
		s, next := r.str(i)
		writeString(b, s, r.lim)
		return next
	}
	next := r.end(i) // a number, as written, or a literal
	b.Write(r.raw[i:next])
	return next
}

// str decodes the string at i and returns where it ends. A string with no
// escape and valid UTF-8 is its bytes; any other is decoded by
// encoding/json, so escapes, surrogates and bad bytes read as they always
// did.
func (r *renderer) str(i int) (string, int) {
	j := i + 1
	simple := true
	for r.raw[j] != '"' {
		if r.raw[j] == '\\' {
			simple = false
			j++
		} else if r.raw[j] < 0x20 || r.raw[j] >= utf8.RuneSelf {
			simple = false
		}
		j++
	}
	raw := r.raw[i : j+1]
	if simple || utf8.Valid(raw) && !bytes.ContainsRune(raw, '\\') {
		return string(raw[1 : len(raw)-1]), j + 1
	}
	var s string
	json.Unmarshal(raw, &s) // valid: json.Valid accepted the whole text
	return s, j + 1
}

// end returns where the value at i ends, without rendering it.
func (r *renderer) end(i int) int {
	switch c := r.raw[i]; c {
	case '"':
		for j := i + 1; ; j++ {
			switch r.raw[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
	case '{', '[':
		depth := 0
		for j := i; ; j++ {
			switch r.raw[j] {
			case '"':
				j = r.end(j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
	}
	j := i
	for j < len(r.raw) && !strings.ContainsRune(" \t\r\n,]}", rune(r.raw[j])) {
		j++
	}
	return j
}

// skip returns the first index at or after i that is not JSON white space.
func (r *renderer) skip(i int) int {
	for i < len(r.raw) {
		switch r.raw[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// plain reports whether a key shows without quotes: a letter or '_', then
// letters, digits and '_'. Any other key is quoted, so a key cannot pass
// for more of the object.
func plain(k string) bool {
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9' {
			continue
		}
		return false
	}
	return k != ""
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
