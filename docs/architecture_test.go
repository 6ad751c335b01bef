package docs

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
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

// TestPluginsGuideNamesCoreLibraries checks that PLUGINS.md, where it shows
// a plugin built from several packages, names every library juju's core
// module links (the imports of plugins/core), and no other.
func TestPluginsGuideNamesCoreLibraries(t *testing.T) {
	files, err := filepath.Glob("../plugins/core/*.go")
	if err != nil {
		t.Fatal(err)
	}
	var linked []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if lib, ok := strings.CutPrefix(p, "github.com/jujutools/juju/"); ok && strings.HasPrefix(lib, "plugins/") {
				linked = append(linked, lib)
			}
		}
	}
	if len(linked) < 3 {
		t.Fatalf("plugins/core links only %v; the parse is wrong", linked)
	}
	b, err := os.ReadFile("PLUGINS.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sentence, ok := strings.Cut(strings.Join(strings.Fields(string(b)), " "), "plugins/core links ")
	if !ok {
		t.Fatal(`PLUGINS.md no longer says what "plugins/core links"`)
	}
	sentence, _, _ = strings.Cut(sentence, ".")
	named := regexp.MustCompile(`plugins/[a-z]+`).FindAllString(sentence, -1)
	slices.Sort(linked)
	slices.Sort(named)
	if !slices.Equal(linked, named) {
		t.Errorf("PLUGINS.md says plugins/core links %v; it imports %v", named, linked)
	}
}
