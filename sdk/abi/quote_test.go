package abi

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuote(t *testing.T) {
	long := strings.Repeat("x", 5000)
	tests := []struct{ in, want string }{
		{"a.txt", `"a.txt"`},
		{"a\x00b", `"a\x00b"`},
		{`say "hi"`, `"say \"hi\""`},
		{long, `"` + strings.Repeat("x", MaxQuoted) + `…" (5000 bytes)`},
		// A cut never splits a character: é is two bytes.
		{"a" + strings.Repeat("é", MaxQuoted), `"a` + strings.Repeat("é", (MaxQuoted-1)/2) + `…" (401 bytes)`},
	}
	for _, tt := range tests {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%.40q) = %.300s, want %.300s", tt.in, got, tt.want)
		}
	}
}

// Whatever the string, its quotation is bounded and valid UTF-8.
func TestQuoteBounded(t *testing.T) {
	for _, s := range []string{strings.Repeat("\x00", 10<<20), strings.Repeat("\xff", 1000), strings.Repeat("日本", 1000)} {
		q := Quote(s)
		if len(q) > 4*MaxQuoted+40 || !utf8.ValidString(q) {
			t.Errorf("Quote of %d bytes is %d bytes (valid UTF-8: %v)", len(s), len(q), utf8.ValidString(q))
		}
	}
}

func TestCut(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdef", 3, "abc…"},
		{"aéé", 2, "a…"}, // é is two bytes: not split
		{"ééé", 3, "é…"},
		{"", 0, ""},
	} {
		if got := Cut(c.s, c.n); got != c.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

func TestNumber(t *testing.T) {
	for in, want := range map[float64]string{
		0:                       "0",
		-3:                      "-3",
		9007199254740991:        "9007199254740991",
		1e20:                    "100000000000000000000",
		1e21:                    "1e+21",
		1e308:                   "1e+308",
		-1.7976931348623157e308: "-1.7976931348623157e+308",
		0.75:                    "0.75",
		1e-300:                  "1e-300",
		123456.789:              "123456.789",
	} {
		if got := Number(in); got != want {
			t.Errorf("Number(%v) = %q, want %q", in, got, want)
		}
	}
}
