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

func TestReadJSONString(t *testing.T) {
	for _, tt := range []struct {
		in   string // the string starts at its first quote
		want string
		ok   bool
	}{
		{`"plain" rest`, "plain", true},
		{`"é ☃"`, "é ☃", true},
		{`"a\nb\t\"\\\/\b\f\r"`, "a\nb\t\"\\/\b\f\r", true},
		{`"\u00e9\u0000x"`, "é\x00x", true},
		{`""`, "", true},
		{`"\ud83d\ude00"`, "", false}, // surrogates: left to encoding/json
		{"\"\xff\"", "", false},
		{"\"a\\n\xc3\"", "", false},
		{`"\x"`, "", false},
		{`"\u12"`, "", false},
		{`"\u+123"`, "", false},
		{"\"a\nb\"", "", false},
		{`"open`, "", false},
	} {
		in := []byte("x" + tt.in)
		got, end, ok := ReadJSONString(in, 1)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("%s: got %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
			continue
		}
		if ok {
			var js string
			if err := json.Unmarshal(in[1:end], &js); err != nil || js != got {
				t.Errorf("%s: read %q up to %d, where encoding/json reads %q (%v)", tt.in, got, end, js, err)
			}
		}
	}
}
