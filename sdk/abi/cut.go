package abi

import (
	"encoding/json"
	"fmt"
)

// MaxStructured bounds the structured content juju passes a client, and
// keepMember the largest member of a larger one that it keeps: clients
// reject or truncate results past roughly 25,000 tokens (SPEC §4: each of a
// result's text and structured content under 100,000 bytes), and the core
// tools cut their own output below this.
const (
	MaxStructured = 99_000
	keepMember    = 1 << 10
)

// CutStructured returns structured content of at most MaxStructured bytes
// as it is. A larger one (only a plugin that ignores SPEC §4 sends it) is
// replaced by its shape: an object keeps its small members (counts, flags,
// short strings), its large arrays, strings and objects are emptied, and a
// member "jujuCut" says what was dropped and that the text holds the
// result. No client ever gets more than MaxStructured bytes.
func CutStructured(raw []byte) []byte {
	if len(raw) <= MaxStructured {
		return raw
	}
	return shape(raw, nil, nil, len(raw))
}

// shape is CutStructured's shape of the JSON value js whose splices, taken
// from body, make it size bytes once resolved. It builds no member past
// keepMember bytes, so a content that would resolve to gigabytes costs a
// scan of its splices' bytes, not their escaping (Resolve). js must be
// valid JSON, and the splices checked by Resolve.
func shape(js []byte, splices []Splice, body []byte, size int) []byte {
	cut, _ := json.Marshal(map[string]any{
		"bytes": size,
		"note": fmt.Sprintf("juju emptied this structured content's large members: it was %d bytes, past the %d a client takes; the text holds the result",
			size, MaxStructured),
	})
	noteAlone, _ := json.Marshal(map[string]json.RawMessage{"jujuCut": cut})
	obj := map[string]json.RawMessage{}
	kept := 0 // the bytes of the members kept so far, a bound on their JSON
	ok := eachMember(js, func(keyAt, keyEnd, valAt, end int) bool {
		// This member's splices: one at its key, if its key is "", and
		// those of its value (none is in white space: Resolve checked).
		var own []Splice
		for len(splices) > 0 && splices[0].At < end {
			own, splices = append(own, splices[0]), splices[1:]
		}
		var keySplice *Splice
		if len(own) > 0 && own[0].At == keyAt {
			keySplice, own = &own[0], own[1:]
		}
		key, ok := resolvedKey(js[keyAt:keyEnd], keySplice, body)
		if !ok {
			return true // a key past keepMember: the member is dropped
		}
		var v json.RawMessage
		if resolvedLen(js[valAt:end], own, body, keepMember) <= keepMember {
			v = appendResolved(nil, js[valAt:end], valAt, own, body)
		} else {
			switch js[valAt] {
			case '[':
				v = json.RawMessage(`[]`)
			case '"':
				v = json.RawMessage(`""`)
			case '{':
				v = json.RawMessage(`{}`)
			default:
				delete(obj, key)
				return true
			}
		}
		obj[key] = v
		kept += len(key) + len(v) + 4
		return kept <= MaxStructured
	})
	if !ok || kept > MaxStructured { // not an object, or too many small members
		return noteAlone
	}
	obj["jujuCut"] = cut
	out, err := json.Marshal(obj)
	if err != nil || len(out) > MaxStructured {
		return noteAlone
	}
	return out
}

// eachMember calls f with the offsets in js, valid JSON, of each member of
// the object js holds: where its key starts and ends, where its value
// starts and ends. It stops when f returns false, and reports false when
// js holds no object or f stopped it.
func eachMember(js []byte, f func(keyAt, keyEnd, valAt, end int) bool) bool {
	i := skipSpace(js, 0)
	if i >= len(js) || js[i] != '{' {
		return false
	}
	for i = skipSpace(js, i+1); i < len(js) && js[i] == '"'; {
		keyAt := i
		keyEnd, ok := validValue(js, i, 1)
		if !ok {
			return false
		}
		valAt := skipSpace(js, skipSpace(js, keyEnd)+1) // past the colon
		end, ok := validValue(js, valAt, 1)
		if !ok || !f(keyAt, keyEnd, valAt, end) {
			return false
		}
		if i = skipSpace(js, end); i < len(js) && js[i] == ',' {
			i = skipSpace(js, i+1)
		}
	}
	return true
}

// resolvedKey decodes the key raw, or what its splice s puts there; false
// when it is past keepMember bytes.
func resolvedKey(raw []byte, s *Splice, body []byte) (string, bool) {
	if s != nil {
		b := body[s.Off : s.Off+s.Len]
		if jsonStringLen(b, true, keepMember) > keepMember {
			return "", false
		}
		raw = AppendJSONString(nil, string(b), true)
	}
	var key string
	if len(raw) > keepMember || json.Unmarshal(raw, &key) != nil {
		return "", false
	}
	return key, true
}

// resolvedLen is the length of js once splices, all inside it, are
// resolved from body, or a number past limit once it is known to be past
// it.
func resolvedLen(js []byte, splices []Splice, body []byte, limit int) int {
	n := len(js)
	for _, s := range splices {
		if n > limit {
			break
		}
		n += jsonStringLen(body[s.Off:s.Off+s.Len], true, limit) - 2
	}
	return n
}

// appendResolved appends js (which starts at offset at of the structured
// content) to dst, each splice's empty string replaced by its bytes of
// body as a JSON string, escaped as encoding/json escapes a string.
func appendResolved(dst, js []byte, at int, splices []Splice, body []byte) []byte {
	last := 0
	for _, s := range splices {
		dst = append(dst, js[last:s.At-at]...)
		dst = AppendJSONString(dst, string(body[s.Off:s.Off+s.Len]), true)
		last = s.At - at + 2
	}
	return append(dst, js[last:]...)
}
