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
	// Secrets, if set, returns where the credentials in a string lie, in
	// order and apart; each shows as SecretMark.
	Secrets func(s string) [][2]int
}

// notJSON introduces arguments that do not parse as JSON.
const notJSON = "(arguments that are not JSON) "

// Args renders a call's JSON arguments on one line, for the owner's
// prompt, the approvals list and the audit: {command: "make test",
// timeoutMs: 5000}. Keys are sorted (of a key given twice, the last
// counts, as when the arguments are decoded); each string is quoted and
// made visible (Quote), numbers show as sent; within lim nothing is cut.
//
// It renders from the JSON text itself, through a flat tree of spans
// (renderer), not from values encoding/json decodes: every call is
// audited, and decoding a tiny call's arguments cost as much as a tenth
// of the call.
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
		r := renderer{raw: raw, lim: lim, b: &b, nodes: make([]node, 0, 8)}
		r.write(r.parse(r.skip(0)))
	}
	s := b.String()
	if lim.Total > 0 {
		s, _ = Clip(s, lim.Total)
	}
	return s
}

// renderer writes a JSON text that json.Valid accepted. It reads the text
// once into a flat tree of spans (an object's members must be sorted
// before they are written), then writes from the tree: linear in the
// text, whatever its nesting.
type renderer struct {
	raw   []byte
	lim   Limits
	b     *strings.Builder
	nodes []node
}

// node is one value of the text: where it lies, its kind ('{', '[', '"'
// or 0 for a number or literal), its first child and its next sibling
// (-1: none), for an object's member its key, and for an array how many
// elements past lim.List it holds (those get no node).
type node struct {
	key         string
	start, end  int
	first, next int
	more        int
	kind        byte
}

// parse reads the value at i into r.nodes and returns its index.
func (r *renderer) parse(i int) int {
	at := len(r.nodes)
	r.nodes = append(r.nodes, node{start: i, first: -1, next: -1})
	switch c := r.raw[i]; c {
	case '{', '[':
		close := byte('}')
		if c == '[' {
			close = ']'
		}
		r.nodes[at].kind = c
		prev := -1
		i = r.skip(i + 1)
		for n := 0; r.raw[i] != close; n++ {
			var key string
			if c == '{' {
				key, i = r.str(i)
				i = r.skip(r.skip(i) + 1) // past the colon
			}
			if c == '[' && r.lim.List > 0 && n >= r.lim.List {
				// Past the limit, elements are only counted.
				r.nodes[at].more++
				i = r.after(r.pass(i))
				continue
			}
			child := r.parse(i)
			r.nodes[child].key = key
			if prev < 0 {
				r.nodes[at].first = child
			} else {
				r.nodes[prev].next = child
			}
			prev = child
			i = r.after(r.nodes[child].end)
		}
		r.nodes[at].end = i + 1
	case '"':
		r.nodes[at].kind = c
		r.nodes[at].end = r.pass(i)
	default: // a number or a literal
		r.nodes[at].end = r.pass(i)
	}
	return at
}

// pass returns where the value at i ends, and makes no node.
func (r *renderer) pass(i int) int {
	depth := 0
	for j := i; ; j++ {
		switch r.raw[j] {
		case '"':
			for j++; r.raw[j] != '"'; j++ {
				if r.raw[j] == '\\' {
					j++
				}
			}
		case '{', '[':
			depth++
			continue
		case '}', ']':
			depth--
		default:
			if depth == 0 { // a number or a literal
				for j < len(r.raw) && !strings.ContainsRune(" \t\r\n,]}", rune(r.raw[j])) {
					j++
				}
				return j
			}
			continue
		}
		if depth == 0 {
			return j + 1
		}
	}
}

// write renders node n. Past four times lim.Total bytes of output it
// stops, since Clip cuts there anyway.
func (r *renderer) write(n int) {
	if r.lim.Total > 0 && r.b.Len() > 4*r.lim.Total {
		return
	}
	b, v := r.b, r.nodes[n]
	switch v.kind {
	case '{':
		var small [8]int
		members := small[:0]
		for c := v.first; c >= 0; c = r.nodes[c].next {
			members = append(members, c)
		}
		// Sorted by key; of equal keys the last given counts.
		slices.SortStableFunc(members, func(x, y int) int { return strings.Compare(r.nodes[x].key, r.nodes[y].key) })
		b.WriteByte('{')
		shown := 0
		for j, m := range members {
			key := r.nodes[m].key
			if j+1 < len(members) && r.nodes[members[j+1]].key == key {
				continue
			}
			if shown > 0 {
				b.WriteString(", ")
			}
			shown++
			if plain(key) {
				b.WriteString(key)
			} else {
				b.WriteString(Quote(key))
			}
			b.WriteString(": ")
			r.write(m)
		}
		b.WriteByte('}')
	case '[':
		b.WriteByte('[')
		for c := v.first; c >= 0; c = r.nodes[c].next {
			if c != v.first {
				b.WriteString(", ")
			}
			r.write(c)
		}
		if v.more > 0 {
			b.WriteString(", " + Ellipsis + " " + strconv.Itoa(v.more) + " more")
		}
		b.WriteByte(']')
	case '"':
		s, _ := r.str(v.start)
		writeString(b, s, r.lim)
	default:
		b.Write(r.raw[v.start:v.end])
	}
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
		} else if r.raw[j] >= utf8.RuneSelf {
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

// after returns where the next member or element starts, or the closing
// bracket, given where a value ends.
func (r *renderer) after(end int) int {
	i := r.skip(end)
	if r.raw[i] == ',' {
		i = r.skip(i + 1)
	}
	return i
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

// writeString renders a string value, cut to lim.String characters, a
// URL's password in it shown as PasswordMark (urlPasswords) and the
// credentials lim.Secrets finds as SecretMark.
func writeString(b *strings.Builder, s string, lim Limits) {
	cut := len(s)
	if lim.String > 0 && utf8.RuneCountInString(s) > lim.String {
		cut = 0
		for range lim.String - 1 {
			_, size := utf8.DecodeRuneInString(s[cut:])
			cut += size
		}
	}
	b.WriteByte('"')
	at := 0
	spans := urlPasswords(s)
	var secrets [][2]int
	if lim.Secrets != nil {
		// Only what shows is judged, with a margin for a credential the
		// cut falls in: a file's content of megabytes is not read whole.
		secrets = lim.Secrets(s[:min(len(s), cut+secretMargin)])
	}
	for len(spans) > 0 || len(secrets) > 0 {
		// The next span to show, of either kind; one that overlaps a span
		// shown already is shown with it.
		p, mark := [2]int{}, SecretMark
		if len(secrets) == 0 || len(spans) > 0 && spans[0][0] <= secrets[0][0] {
			p, mark, spans = spans[0], PasswordMark, spans[1:]
		} else {
			p, secrets = secrets[0], secrets[1:]
		}
		if p[0] >= cut {
			break
		}
		if p[0] < at {
			if p[1] > at {
				at = min(p[1], cut)
			}
			continue
		}
		write(b, s[at:p[0]], true)
		b.WriteString(mark)
		at = min(p[1], cut)
	}
	write(b, s[at:cut], true)
	if cut < len(s) {
		b.WriteString(Ellipsis + `" (` + strconv.Itoa(len(s)) + " bytes)")
		return
	}
	b.WriteByte('"')
}

// PasswordMark stands for the password of a URL in an argument
// (https://alice:⟨password⟩@host/): the audit log and the owner's prompts
// say that one is there, never what it is. (A literal ⟨ in a string is
// escaped, so the mark cannot be forged.)
const PasswordMark = string(markOpen) + "password" + string(markClose)

// secretMargin is how far past its cut a string is judged for secrets.
const secretMargin = 1024

// SecretMark stands for a credential in an argument that Limits.Secrets
// found (curl -H "Authorization: Bearer ⟨secret⟩"), as PasswordMark does
// for a URL's password.
const SecretMark = string(markOpen) + "secret" + string(markClose)

// urlPasswords returns where the passwords of the URLs written in s lie:
// in each "scheme://user:password@host", the bytes between the first ':'
// of the user information and its last '@'.
func urlPasswords(s string) (spans [][2]int) {
	for i := 0; ; {
		k := strings.Index(s[i:], "://")
		if k < 0 {
			return spans
		}
		start := i + k + 3
		end := start
		for end < len(s) && !strings.ContainsRune("/?#\\ \t\r\n\"'<>", rune(s[end])) {
			end++
		}
		auth := s[start:end]
		if at := strings.LastIndexByte(auth, '@'); at > 0 {
			if c := strings.IndexByte(auth[:at], ':'); c >= 0 && c+1 < at {
				spans = append(spans, [2]int{start + c + 1, start + at})
			}
		}
		i = end
	}
}
