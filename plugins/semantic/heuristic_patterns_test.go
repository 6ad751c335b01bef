package semantic

import "testing"

// Every pattern compiles (they compile on first use, so a broken one would
// otherwise fail only when its language is first indexed) and has the
// submatch that names the definition.
func TestPatternsCompile(t *testing.T) {
	for lang, pats := range patterns {
		for _, pt := range append(pats, goTypeBlock...) {
			if pt.re.Get().SubexpIndex("name") < 0 {
				t.Errorf("%s %s: no (?P<name>…) group", lang, pt.kind)
			}
		}
	}
}
