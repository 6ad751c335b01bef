package abi

import (
	"encoding/json"
	"strings"
	"testing"
)

var validCases = []string{
	``, ` `, `{}`, ` {} `, `[]`, `[1,2]`, `[1,]`, `[,1]`, `{"a":1}`, `{"a":1,}`, `{"a"}`, `{"a":}`, `{a:1}`, `{"a":1 "b":2}`,
	`"x"`, `"x`, `"\"`, `"\\"`, `"\u00e9"`, `"\u00g9"`, `"\u00e"`, `"\x"`, `"a` + "\x01" + `b"`, "\"\xff\xfe\"", `"/\/"`,
	`0`, `-0`, `01`, `-`, `1.`, `1.5`, `.5`, `1e5`, `1E+5`, `1e-`, `1e`, `-1.5e-10`, `00`, `1.5.5`, `+1`,
	`true`, `tru`, `truex`, `false`, `null`, `nul`, `nulll`, `True`,
	`{} {}`, `{}}`, `{}},"id":7`, `[{"a":[{"b":null}]}]`, "[\t\n\r 1 \n]", "\x00", `[1 2]`, `{"a":1,"a":2}`,
	`[` + strings.Repeat(`"long string with \"escapes\" \\ and more",`, 50) + `1]`,
}

func TestValidIsEncodingJSON(t *testing.T) {
	for _, c := range validCases {
		if got, want := validJSON([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("validJSON(%q) = %v, encoding/json says %v", c, got, want)
		}
	}
	for _, depth := range []int{maxJSONDepth, maxJSONDepth + 1} {
		for _, open := range []string{"[", `{"a":`} {
			closing := map[string]string{"[": "]", `{"a":`: "}"}[open]
			b := []byte(strings.Repeat(open, depth) + "1" + strings.Repeat(closing, depth))
			if got, want := validJSON(b), json.Valid(b); got != want {
				t.Errorf("%d levels of %s: Valid %v, encoding/json %v", depth, open, got, want)
			}
		}
	}
}

// FuzzValid holds Valid to encoding/json's answer on any bytes.
func FuzzValid(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := validJSON(b), json.Valid(b); got != want {
			t.Fatalf("validJSON(%q) = %v, encoding/json says %v", b, got, want)
		}
	})
}

func BenchmarkValid(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"path":"list","entries":[`)
	for i := range 80 {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"name":"entry` + strings.Repeat("x", i%7) + `.txt","type":"file","size":1234,"modTime":"2026-12-04T10:00:00Z"}`)
	}
	sb.WriteString(`],"total":80}`)
	data := []byte(sb.String())
	b.Run("abi", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if !validJSON(data) {
				b.Fatal("invalid")
			}
		}
	})
	b.Run("encoding_json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if !json.Valid(data) {
				b.Fatal("invalid")
			}
		}
	})
}
