package abi

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// AppendJSONString writes byte for byte what encoding/json writes.
func TestAppendJSONStringExact(t *testing.T) {
	var all []string
	for c := range 256 {
		all = append(all, string([]byte{byte(c)}), "abcdefgh"+string([]byte{byte(c)})+"ijklmnop")
	}
	all = append(all, "\u2028\u2029", "é✓日本", strings.Repeat("<a href=x&y>", 5))
	for _, s := range all {
		want, _ := json.Marshal(s)
		if got := AppendJSONString(nil, s, true); !bytes.Equal(got, want) {
			t.Errorf("html %q: got %s, want %s", s, got, want)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		if got := AppendJSONString(nil, s, false); !bytes.Equal(got, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))) {
			t.Errorf("no html %q: got %s, want %s", s, got, buf.Bytes())
		}
	}
}
