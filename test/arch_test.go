package test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/jujutools/juju"

// goPackages returns every Go package folder of the repository (all three
// modules), relative to the repository root, with the imports of its
// non-test files.
func goPackages(t *testing.T) map[string]map[string]bool {
	t.Helper()
	pkgs := map[string]map[string]bool{}
	docs := map[string]bool{}
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "node_modules", "bin":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(repoRoot, filepath.Dir(path))
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		if pkgs[rel] == nil {
			pkgs[rel] = map[string]bool{}
		}
		if f.Doc != nil && strings.HasPrefix(f.Doc.Text(), "Package "+f.Name.Name) || f.Name.Name == "main" && f.Doc != nil {
			docs[rel] = true
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			pkgs[rel][p] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel := range pkgs {
		if !docs[rel] {
			t.Errorf("package %s has no package doc comment (\"// Package x …\" or a main's doc)", rel)
		}
	}
	return pkgs
}

// The architecture in SPEC §2 and STYLE.md, enforced.
func TestArchitecture(t *testing.T) {
	pkgs := goPackages(t)
	if len(pkgs) < 10 {
		t.Fatalf("found only %d packages; is repoRoot right?", len(pkgs))
	}
	for rel, imports := range pkgs {
		for imp := range imports {
			internal := strings.HasPrefix(imp, module+"/")
			switch {
			case strings.HasPrefix(rel, "sdk"):
				// The SDK is the plugin authors' API: nothing of the host.
				if internal && !strings.HasPrefix(imp, module+"/sdk") {
					t.Errorf("%s imports %s: sdk/ must not import the host", rel, imp)
				}
			case rel == "sdk/abi":
				if strings.Contains(imp, ".") {
					t.Errorf("sdk/abi must depend on the standard library alone, imports %s", imp)
				}
			case strings.HasPrefix(rel, "plugins"):
				// A plugin may import the SDK and plugin packages (plugins/core
				// links the tool libraries plugins/read, plugins/edit …), never
				// the host.
				if internal && !strings.HasPrefix(imp, module+"/sdk") && !strings.HasPrefix(imp, module+"/plugins/") {
					t.Errorf("%s imports %s: plugins use the SDK only", rel, imp)
				}
			case strings.HasPrefix(rel, "hostfns"):
				for _, banned := range []string{module + "/host/plugin", module + "/host/mcpserver", module + "/cmd"} {
					if imp == banned || imp == module+"/host" {
						t.Errorf("%s imports %s: host functions must not depend on the runtime or the server", rel, imp)
					}
				}
			case rel == "internal/oauth" || rel == "internal/token":
				// Leaves beside the HTTP front: nothing of juju's host.
				for _, up := range []string{"/host", "/hostfns", "/cmd", "/sandbox", "/plugins"} {
					if imp == module+up || strings.HasPrefix(imp, module+up+"/") {
						t.Errorf("%s imports %s: it must not depend on juju's host", rel, imp)
					}
				}
			case strings.HasPrefix(rel, "host") && !strings.HasPrefix(rel, "host/mcpserver"):
				if imp == module+"/host/mcpserver" || strings.HasPrefix(imp, module+"/cmd") {
					t.Errorf("%s imports %s: only cmd/ wires the server", rel, imp)
				}
			}
		}
	}
	if imports := pkgs["sdk/abi"]; imports == nil {
		t.Error("sdk/abi not found")
	}
}
