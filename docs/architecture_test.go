package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestArchitectureNamesEveryFolder checks that ARCHITECTURE.md's map names
// every package folder of the host, its host functions, its leaves and the
// plugins, every test plugin and every golden session: a folder added
// without a line there leaves the next reader a package the map does not
// show.
func TestArchitectureNamesEveryFolder(t *testing.T) {
	b, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	named := 0
	for _, parent := range []string{"host", "hostfns", "internal", "plugins", "sdk"} {
		entries, err := os.ReadDir(filepath.Join("..", parent))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !e.IsDir() || e.Name() == "testdata" {
				continue
			}
			named++
			if !strings.Contains(doc, e.Name()+"/") {
				t.Errorf("ARCHITECTURE.md's layout does not name %s/%s/", parent, e.Name())
			}
		}
	}
	for _, pattern := range []string{"../plugins/testplugins/*/manifest.json", "../test/testdata/sessions/*.txt"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			name := filepath.Base(f)
			if strings.HasSuffix(f, "manifest.json") {
				name = filepath.Base(filepath.Dir(f))
			}
			word := `\b` + regexp.QuoteMeta(name) + `\b`
			if strings.HasSuffix(name, ".txt") { // a session is named in backticks: `edit`
				word = "`" + regexp.QuoteMeta(strings.TrimSuffix(name, ".txt")) + "`"
			}
			named++
			if !regexp.MustCompile(word).MatchString(doc) {
				t.Errorf("ARCHITECTURE.md does not name %s", strings.TrimPrefix(f, "../"))
			}
		}
	}
	if named < 60 {
		t.Errorf("looked for only %d folders and files; the walk is wrong", named)
	}
}
