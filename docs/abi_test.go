package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestABIFieldsExist checks that every field ABI.md's host-function table
// names at the top level of a request or a response header, and every field
// its table of defaults and limits gives a row, is a JSON field of that host
// function's request or result struct in sdk/abi, whose constant's comment
// names them (FnFSRead = "juju_fs_read" // ReadRequest → ReadResult). A row
// left under the wrong function, or a field renamed in the code, would
// otherwise send a plugin author to a field the host refuses.
func TestABIFieldsExist(t *testing.T) {
	fields, fns := abiStructs(t)
	if len(fns) < 20 {
		t.Fatalf("found only %d host functions in sdk/abi; the parse is wrong", len(fns))
	}
	doc, err := os.ReadFile("ABI.md")
	if err != nil {
		t.Fatal(err)
	}
	has := func(types []string, name string) bool {
		for _, ty := range types {
			if fields[ty][name] {
				return true
			}
		}
		return false
	}
	checked := 0
	_, hostTable, _ := strings.Cut(string(doc), "| function | capability | request header | response header (+ body) |")
	hostTable, _, _ = strings.Cut(hostTable, "\n\n")
	for _, row := range tableRows(hostTable) {
		if len(row) < 4 {
			continue
		}
		fn := strings.Trim(row[0], "` ")
		types, ok := fns[fn]
		if !ok {
			t.Errorf("ABI.md's host-function table has a row for %s, which no constant of sdk/abi names", fn)
			continue
		}
		for col, side := range map[int][]string{2: types[:1], 3: types[1:]} {
			for _, name := range topLevelNames(row[col]) {
				checked++
				if !has(side, name) {
					t.Errorf("ABI.md: %s's %s names %q, which %v has no JSON field of", fn, []string{2: "request", 3: "response"}[col], name, side)
				}
			}
		}
	}
	_, limits, _ := strings.Cut(string(doc), "| function | field | default when 0 or absent | limit |")
	limits, _, _ = strings.Cut(limits, "\n\n")
	var current []string
	for _, row := range tableRows(limits) {
		if len(row) < 2 {
			continue
		}
		if names := fnNameRE.FindAllString(row[0], -1); len(names) > 0 {
			current = names
		}
		for _, fn := range current {
			types, ok := fns[fn]
			if !ok {
				t.Errorf("ABI.md's table of defaults has a row for %s, which no constant of sdk/abi names", fn)
				continue
			}
			for _, name := range backticked(parenRE.ReplaceAllString(row[1], "")) {
				checked++
				if !has(types, name) {
					t.Errorf("ABI.md's table of defaults gives %s a field %q, which %v has no JSON field of", fn, name, types)
				}
			}
		}
	}
	if checked < 150 {
		t.Errorf("checked only %d field names in ABI.md; the tables' parse is wrong", checked)
	}
}

var (
	parenRE     = regexp.MustCompile(`\([^()]*\)`)
	backtickRE  = regexp.MustCompile("`([^`]*)`")
	typeNameRE  = regexp.MustCompile(`\b([A-Z][A-Za-z]*(?:Request|Result)|Status)\b`)
	fieldNameRE = regexp.MustCompile(`^[a-z][A-Za-z0-9]*$`)
	fnNameRE    = regexp.MustCompile(`\bjuju_[a-z_]+\b`)
)

// tableRows splits a Markdown table's body into cells, its header rule left out.
func tableRows(table string) [][]string {
	var rows [][]string
	for _, l := range strings.Split(table, "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "|") || strings.HasPrefix(l, "|---") {
			continue
		}
		l = strings.ReplaceAll(l, `\|`, "/")
		cells := strings.Split(strings.Trim(l, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	return rows
}

// backticked returns the field names quoted in a cell.
func backticked(cell string) []string {
	var names []string
	for _, m := range backtickRE.FindAllStringSubmatch(cell, -1) {
		if fieldNameRE.MatchString(m[1]) {
			names = append(names, m[1])
		}
	}
	return names
}

// topLevelNames returns the names at the top level of every `{…}` in a
// cell: {path, entries: [{name, …}], total} gives path, entries and total.
func topLevelNames(cell string) []string {
	var names []string
	for _, m := range backtickRE.FindAllStringSubmatch(cell, -1) {
		s := strings.TrimSpace(m[1])
		if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
			continue
		}
		depth, start := 0, 1
		for i, r := range s {
			switch r {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			if depth == 1 && r == ',' || depth == 0 {
				item := strings.TrimSpace(s[start:i])
				item, _, _ = strings.Cut(item, ":")
				if item = strings.TrimSpace(item); fieldNameRE.MatchString(item) {
					names = append(names, item)
				}
				start = i + 1
			}
		}
	}
	return names
}

// abiStructs parses sdk/abi: the JSON field names of each struct (those
// of embedded structs included), and each host function's request and
// result types, from its constant's comment.
func abiStructs(t *testing.T) (fields map[string]map[string]bool, fns map[string][]string) {
	files, err := filepath.Glob(filepath.Join("..", "sdk", "abi", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	structs := map[string]*ast.StructType{}
	fns = map[string][]string{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range g.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if st, ok := s.Type.(*ast.StructType); ok {
						structs[s.Name.Name] = st
					}
				case *ast.ValueSpec:
					if g.Tok != token.CONST || len(s.Values) != 1 {
						continue
					}
					lit, ok := s.Values[0].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					value, _ := strconv.Unquote(lit.Value)
					if !strings.HasPrefix(value, "juju_") {
						continue
					}
					comment := s.Doc.Text() + s.Comment.Text()
					if len(g.Specs) == 1 {
						comment += g.Doc.Text()
					}
					types := typeNameRE.FindAllString(comment, -1)
					if len(types) >= 2 {
						fns[value] = types[:2]
					}
				}
			}
		}
	}
	fields = map[string]map[string]bool{}
	var collect func(name string, into map[string]bool)
	collect = func(name string, into map[string]bool) {
		st := structs[name]
		if st == nil {
			return
		}
		for _, f := range st.Fields.List {
			tag := ""
			if f.Tag != nil {
				tag, _ = strconv.Unquote(f.Tag.Value)
			}
			jsonName, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
			if len(f.Names) == 0 && jsonName == "" {
				if id, ok := f.Type.(*ast.Ident); ok {
					collect(id.Name, into)
				}
				continue
			}
			if jsonName == "-" {
				continue
			}
			if jsonName != "" {
				into[jsonName] = true
				continue
			}
			for _, n := range f.Names {
				into[n.Name] = true
			}
		}
	}
	for name := range structs {
		fields[name] = map[string]bool{}
		collect(name, fields[name])
	}
	return fields, fns
}
