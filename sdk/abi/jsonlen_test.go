package abi

import (
	"encoding/json"
	"testing"
)

// JSONLen is never less than what encoding/json writes for the string,
// quotes aside.
func FuzzJSONLen(f *testing.F) {
	for _, s := range []string{"", "plain", "a\"b\\c", "<&>", "\x00\x1f\x7f", "é✓😀", "\xff\xfe", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got, min := JSONLen(s), len(b)-2; got < min {
			t.Fatalf("JSONLen(%q) = %d, encoding/json writes %d", s, got, min)
		}
	})
}
