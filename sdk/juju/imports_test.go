package juju

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// TestEveryHostFunctionIsImportedOnce keeps the four places a host
// function appears in the SDK in step: its abi.Fn constant, its
// //go:wasmimport line in imports_wasip1.go, its nil stand-in in
// imports_other.go, and the roundTrip call of its wrapper, which must pass
// the import of the same host function as the constant it names.
func TestEveryHostFunctionIsImportedOnce(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(pattern string) []*ast.File {
		names, err := filepath.Glob(pattern)
		if err != nil || len(names) == 0 {
			t.Fatalf("no files match %s", pattern)
		}
		var files []*ast.File
		for _, n := range names {
			if strings.HasSuffix(n, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, n, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		return files
	}

	// The abi constants: FnXxx → "juju_xxx".
	consts := map[string]string{}
	for _, f := range parse("../abi/*.go") {
		ast.Inspect(f, func(n ast.Node) bool {
			if vs, ok := n.(*ast.ValueSpec); ok {
				for i, id := range vs.Names {
					if strings.HasPrefix(id.Name, "Fn") && i < len(vs.Values) {
						if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
							consts[id.Name], _ = strconv.Unquote(lit.Value)
						}
					}
				}
			}
			return true
		})
	}

	// The imports: hostXxx → "juju_xxx".
	imports := map[string]string{}
	seen := map[string]bool{}
	for _, f := range parse("imports_wasip1.go") {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil {
				continue
			}
			for _, c := range fd.Doc.List {
				rest, ok := strings.CutPrefix(c.Text, "//go:wasmimport ")
				if !ok {
					continue
				}
				module, name, _ := strings.Cut(rest, " ")
				if module != abi.ChannelNamespace {
					t.Errorf("%s is imported from %s, not %s", fd.Name.Name, module, abi.ChannelNamespace)
				}
				if seen[name] {
					t.Errorf("%s is imported twice", name)
				}
				seen[name] = true
				imports[fd.Name.Name] = name
			}
		}
	}
	for c, name := range consts {
		if !seen[name] {
			t.Errorf("abi.%s (%s) has no //go:wasmimport line in imports_wasip1.go", c, name)
		}
	}
	values := map[string]bool{}
	for _, v := range consts {
		values[v] = true
	}
	for fn, name := range imports {
		if !values[name] {
			t.Errorf("%s imports %s, which no abi.Fn constant names", fn, name)
		}
	}

	// The native stand-ins have the same names.
	native := map[string]bool{}
	for _, f := range parse("imports_other.go") {
		ast.Inspect(f, func(n ast.Node) bool {
			if vs, ok := n.(*ast.ValueSpec); ok {
				for _, id := range vs.Names {
					if strings.HasPrefix(id.Name, "host") {
						native[id.Name] = true
					}
				}
			}
			return true
		})
	}
	for fn := range imports {
		if !native[fn] {
			t.Errorf("%s has no nil stand-in in imports_other.go", fn)
		}
		delete(native, fn)
	}
	for fn := range native {
		t.Errorf("imports_other.go declares %s, which imports_wasip1.go does not import", fn)
	}

	// Every wrapper passes the import of the host function it names.
	used := map[string]bool{}
	for _, f := range parse("*.go") {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			ix, ok := call.Fun.(*ast.IndexExpr)
			if !ok {
				return true
			}
			id, ok := ix.X.(*ast.Ident)
			if !ok || id.Name != "roundTrip" && id.Name != "send" || len(call.Args) < 2 {
				return true
			}
			pos := fset.Position(call.Pos())
			imp, ok1 := call.Args[0].(*ast.Ident)
			sel, ok2 := call.Args[1].(*ast.SelectorExpr)
			if !ok1 || !ok2 {
				if imp, ok := call.Args[0].(*ast.Ident); ok && imp.Name == "imp" && id.Name == "send" {
					return true // roundTrip's own call
				}
				t.Errorf("%s: %s must be called with an import and an abi.Fn constant", pos, id.Name)
				return true
			}
			if got, want := imports[imp.Name], consts[sel.Sel.Name]; got == "" || got != want {
				t.Errorf("%s: %s through %s (%s) for abi.%s (%s)", pos, id.Name, imp.Name, got, sel.Sel.Name, want)
			}
			used[imp.Name] = true
			return true
		})
	}
	for fn := range imports {
		if !used[fn] {
			t.Errorf("no wrapper calls %s", fn)
		}
	}
}
