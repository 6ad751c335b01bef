package text

import (
	"strings"
	"testing"
)

// A name's bidi override, zero-width or C1 character is written in octal
// in a --- or +++ line, as git's core.quotePath writes it, so it cannot
// reorder or hide the line; ParsePatch reads the name back whole.
func TestQuotePathEscapesWhatActsOnTheLine(t *testing.T) {
	for _, name := range []string{"a\u202etxt.exe", "zw\u200b.go", "c1\u009b31m", "sep\u2028x", "tag\U000E0041", "é日本語.txt", "plain.txt"} {
		q := QuotePath(name)
		if strings.ContainsAny(q, "\u202e\u200b\u009b\u2028\U000E0041") {
			t.Errorf("QuotePath(%q) = %q keeps a raw character", name, q)
		}
		if strings.Contains(name, "日") && q != name {
			t.Errorf("QuotePath(%q) = %q quotes letters", name, q)
		}
		patch := "--- " + QuotePath("a/"+name) + "\n+++ " + QuotePath("b/"+name) + "\n@@ -1 +1 @@\n-x\n+y\n"
		fps, err := ParsePatch(patch)
		if err != nil || len(fps) != 1 || fps[0].Old != name || fps[0].New != name {
			t.Errorf("ParsePatch of %q: %+v %v", patch, fps, err)
		}
	}
}
