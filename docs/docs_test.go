// Package docs holds juju's documents; its test keeps them true to the code.
package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// citedRE finds a test, fuzz test or benchmark named in a document, with
// the `-run ` or `-bench ` that may precede it: there the name is a
// pattern, and a test whose name it begins is enough.
var citedRE = regexp.MustCompile(`(-(?:run|bench|fuzz)[ =])?\b((?:Test|Fuzz|Benchmark)[A-Z][A-Za-z0-9_]*)`)

// definedRE finds the test functions a _test.go file defines.
var definedRE = regexp.MustCompile(`(?m)^func ((?:Test|Fuzz|Benchmark)[A-Z][A-Za-z0-9_]*)\(`)

// TestCitedTestsExist checks that every test a document names as the
// evidence of a claim is a test of the repository: a claim in SECURITY.md
// whose test was renamed or removed would otherwise stand unchecked.
func TestCitedTestsExist(t *testing.T) {
	defined := definedTests(t, "..")
	if len(defined) < 100 {
		t.Fatalf("found only %d test functions under the repository; the walk is wrong", len(defined))
	}
	docs, _ := filepath.Glob("*.md")
	docs = append(docs, "../README.md")
	cited := 0
	for _, doc := range docs {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range citedRE.FindAllStringSubmatch(string(text), -1) {
			cited++
			pattern, name := m[1] != "", m[2]
			if defined[name] || pattern && hasPrefix(defined, name) {
				continue
			}
			t.Errorf("%s names %s, which no _test.go in the repository defines", doc, name)
		}
	}
	if cited < 100 {
		t.Errorf("the documents cite only %d tests; the pattern is wrong", cited)
	}
}

// definedTests walks root for _test.go files, the plugin and SDK modules
// included, and returns the names of the test functions they define.
func definedTests(t *testing.T, root string) map[string]bool {
	names := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range definedRE.FindAllStringSubmatch(string(src), -1) {
			names[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// hasPrefix reports whether some defined name begins with prefix.
func hasPrefix(defined map[string]bool, prefix string) bool {
	keys := make([]string, 0, len(defined))
	for k := range defined {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	i := sort.SearchStrings(keys, prefix)
	return i < len(keys) && strings.HasPrefix(keys[i], prefix)
}
