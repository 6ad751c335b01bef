package manifest

import (
	"regexp"
	"strings"
	"testing"
)

// The hand-written checks accept exactly what the patterns the messages
// quote accept.
func FuzzNameRules(f *testing.F) {
	name, tool, file := regexp.MustCompile(namePattern), regexp.MustCompile(toolNamePattern), regexp.MustCompile(filePattern)
	for _, s := range []string{"", "a", "core-exec", "-x", "x-", "Core", "a_b", "plugin.wasm", ".wasm", "a.wasm.wasm",
		"x.WASM", "_a.wasm", "A-b_c.d.wasm", "a/b.wasm", "é", strings.Repeat("a", 64), strings.Repeat("a", 65),
		strings.Repeat("b", 128) + ".wasm", strings.Repeat("b", 129) + ".wasm", "a\n", "a.wasm\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validName(s), name.MatchString(s); got != want {
			t.Errorf("validName(%q) = %v, the pattern says %v", s, got, want)
		}
		if got, want := validToolName(s), tool.MatchString(s); got != want {
			t.Errorf("validToolName(%q) = %v, the pattern says %v", s, got, want)
		}
		if got, want := validFile(s), file.MatchString(s); got != want {
			t.Errorf("validFile(%q) = %v, the pattern says %v", s, got, want)
		}
	})
}
