package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sectionRefRE finds a reference to a section of another document:
// (RATIONALE, "Loops check a stop flag of juju's own"), SECURITY.md,
// "Web fetches", docs/RATIONALE.md under "The audit log …".
var sectionRefRE = regexp.MustCompile(`(SECURITY|RATIONALE|ARCHITECTURE|ABI|PLUGINS|CLI)(?:\.md)?[,:]?\s+(?:under\s+|section\s+)?"([^"]+)"`)

// titleRE finds what a reference may name: a heading, or the bold title
// a paragraph or an item starts with (**What an approval covers.**).
var titleRE = regexp.MustCompile(`(?m)^#+ (.*)$|^\s*(?:- )?\*\*([^*]+?)\.?\*\*`)

// TestSectionReferencesExist checks that every section one document sends
// its reader to by title ("RATIONALE, "…"") is a heading or a bold
// paragraph title of that document: a section renamed leaves the reader
// searching for a title that is gone.
func TestSectionReferencesExist(t *testing.T) {
	docs, _ := filepath.Glob("*.md")
	docs = append(docs, "../README.md")
	titles := map[string][]string{}
	text := map[string]string{}
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text[doc] = string(b)
		name := strings.TrimSuffix(filepath.Base(doc), ".md")
		for _, m := range titleRE.FindAllStringSubmatch(string(b), -1) {
			titles[name] = append(titles[name], strings.Join(strings.Fields(m[1]+m[2]), " "))
		}
	}
	refs := 0
	for _, doc := range docs {
		for _, m := range sectionRefRE.FindAllStringSubmatch(text[doc], -1) {
			refs++
			want := strings.TrimSpace(strings.TrimSuffix(strings.Join(strings.Fields(m[2]), " "), "…"))
			found := false
			for _, title := range titles[m[1]] {
				if strings.Contains(title, want) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s sends its reader to %s, %q, which is no heading or bold title there", doc, m[1], want)
			}
		}
	}
	if refs < 30 {
		t.Errorf("found only %d references to sections; the pattern is wrong", refs)
	}
}
