package mcpserver

import (
	"encoding/json"
	"fmt"
)

// keepMember is the largest member of an oversized structured content
// that capStructured keeps as it is.
const keepMember = 1 << 10

// capStructured passes structured content of at most maxStructured bytes
// as it is. Larger content (only a plugin that ignores SPEC §4 sends it)
// is replaced by its shape: an object keeps its small members (counts,
// flags, short strings), its large arrays, strings and objects are
// emptied, and a member "jujuCut" says what was dropped and that the text
// holds the result. No client ever gets more than the cap.
func capStructured(raw json.RawMessage) json.RawMessage {
	if len(raw) <= maxStructured {
		return raw
	}
	note := map[string]any{
		"bytes": len(raw),
		"note": fmt.Sprintf("juju emptied this structured content's large members: it was %d bytes, past the %d a client takes; the text holds the result",
			len(raw), maxStructured),
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		obj = map[string]json.RawMessage{}
	}
	for k, v := range obj {
		if len(v) <= keepMember {
			continue
		}
		switch v[0] {
		case '[':
			obj[k] = json.RawMessage(`[]`)
		case '"':
			obj[k] = json.RawMessage(`""`)
		case '{':
			obj[k] = json.RawMessage(`{}`)
		default:
			delete(obj, k)
		}
	}
	cut, _ := json.Marshal(note)
	obj["jujuCut"] = cut
	out, err := json.Marshal(obj)
	if err != nil || len(out) > maxStructured { // too many small members: the note alone
		out, _ = json.Marshal(map[string]json.RawMessage{"jujuCut": cut})
	}
	return out
}
