package juju

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestPathText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"src/main.go", "src/main.go"},
		{"with space/ü ß 日本.txt", "with space/ü ß 日本.txt"},
		{`it's "quoted" inside`, `it's "quoted" inside`},
		{"a\nb.txt", `"a\nb.txt"`},
		{"a\rb", `"a\rb"`},
		{"tab\there", `"tab\there"`},
		{"del\x7f", `"del\u007f"`},
		{"esc\x1b[31m", `"esc\u001b[31m"`},
		{"nel\u0085x", `"nel\u0085x"`},
		{"csi\u009b2J", `"csi\u009b2J"`},
		{"ls\u2028x", `"ls\u2028x"`},
		{"ps\u2029x", `"ps\u2029x"`},
		{"evil\u202etxt.exe", `"evil\u202etxt.exe"`},
		{"iso\u2066x\u2069", `"iso\u2066x\u2069"`},
		{"zero\u200bwidth\ufeff", `"zero\u200bwidth\ufeff"`},
		{"tag\U000e0041", `"tag\udb40\udc41"`},
		{"a\nbad \xff", `"a\nbad \ufffd"`},
		{`"starts with a quote`, `"\"starts with a quote"`},
		{"", ""},
	} {
		got := PathText(c.in)
		if got != c.want {
			t.Errorf("PathText(%q) = %q, want %q", c.in, got, c.want)
		}
		if string(AppendPathText([]byte("x "), c.in)) != "x "+got {
			t.Errorf("AppendPathText(%q) differs from PathText", c.in)
		}
		if LineText(c.in) != got {
			t.Errorf("LineText(%q) differs from PathText", c.in)
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f || unsafeRune(r) {
				t.Errorf("PathText(%q) = %q carries %U", c.in, got, r)
			}
		}
		// A quoted path reads back as itself in JSON arguments.
		if got != c.in && utf8.ValidString(c.in) {
			var back string
			if err := json.Unmarshal([]byte(got), &back); err != nil || back != c.in {
				t.Errorf("%s does not read back as %q: %q, %v", got, c.in, back, err)
			}
		}
	}
}

// Whatever the text, LineText carries no character that breaks a line or
// hides, and reads back as the text: unchanged, or as a JSON string.
func FuzzLineText(f *testing.F) {
	for _, s := range []string{"src/main.go", "a\nb", "\"q", "x\u202ey", "\U000e0041", "\x1b[2J", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := LineText(s)
		for _, r := range got {
			if r < 0x20 || r == 0x7f || unsafeRune(r) {
				t.Fatalf("LineText(%q) = %q carries %U", s, got, r)
			}
		}
		if got == s || !utf8.ValidString(s) {
			return
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back != s {
			t.Fatalf("LineText(%q) = %s reads back as %q, %v", s, got, back, err)
		}
	})
}
