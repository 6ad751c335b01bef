package juju

import (
	"encoding/json"
	"testing"
)

func TestPathText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"src/main.go", "src/main.go"},
		{"with space/ü ß 日本.txt", "with space/ü ß 日本.txt"},
		{`it's "quoted" inside`, `it's "quoted" inside`},
		{"a\nb.txt", `"a\nb.txt"`},
		{"a\rb", `"a\rb"`},
		{"tab\there", `"tab\there"`},
		{"del\x7f", "\"del\x7f\""},
		{"nel\u0085x", "\"nel\u0085x\""},
		{"ls\u2028x", `"ls\u2028x"`},
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
		// A quoted path reads back as itself in JSON arguments.
		if got != c.in {
			var back string
			if err := json.Unmarshal([]byte(got), &back); err != nil || back != c.in {
				t.Errorf("%s does not read back as %q: %q, %v", got, c.in, back, err)
			}
		}
	}
}
