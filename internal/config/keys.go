package config

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// knownKeys maps every dotted key File accepts to its Go type; it is derived
// from File's toml tags, so the struct is the one list of keys.
var knownKeys = keysOf(reflect.TypeFor[File](), "", map[string]reflect.Type{})

func keysOf(t reflect.Type, prefix string, out map[string]reflect.Type) map[string]reflect.Type {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "" || name == "-" {
			continue
		}
		path := prefix + name
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		out[path] = ft
		if ft.Kind() == reflect.Struct {
			keysOf(ft, path+".", out)
		}
	}
	return out
}

// describe says in words what a key's value must be.
func describe(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Slice:
		return "a list of " + strings.TrimPrefix(describe(t.Elem()), "a ") + "s"
	case reflect.Struct:
		return "a table"
	}
	return t.String()
}

// docKey is a key as written in the document, with the line it is on.
type docKey struct {
	path string // dotted
	line int
}

// scanKeys lists every key of a TOML document (table headers, dotted keys
// and the keys of inline tables, each prefix included) in document order,
// with its line. It reports false when the document does not parse; the
// decoder then reports the syntax error.
func scanKeys(data []byte) ([]docKey, bool) {
	var p unstable.Parser
	p.Reset(data)
	var keys []docKey
	seen := map[string]bool{}
	add := func(parts []string, line int) {
		for i := range parts {
			path := strings.Join(parts[:i+1], ".")
			if !seen[path] {
				seen[path] = true
				keys = append(keys, docKey{path, line})
			}
		}
	}
	var walkInline func(n *unstable.Node, prefix []string)
	walkKeyValue := func(n *unstable.Node, prefix []string) {
		parts, line := keyParts(&p, n.Key())
		full := append(append([]string(nil), prefix...), parts...)
		add(full, line)
		if v := n.Value(); v.Kind == unstable.InlineTable {
			walkInline(v, full)
		}
	}
	walkInline = func(n *unstable.Node, prefix []string) {
		it := n.Children()
		for it.Next() {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				walkKeyValue(c, prefix)
			}
		}
	}
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			var line int
			table, line = keyParts(&p, e.Key())
			add(table, line)
		case unstable.KeyValue:
			walkKeyValue(e, table)
		}
	}
	return keys, p.Error() == nil
}

func keyParts(p *unstable.Parser, it unstable.Iterator) ([]string, int) {
	var parts []string
	line := 0
	for it.Next() {
		n := it.Node()
		if line == 0 {
			line = p.Shape(n.Raw).Start.Line
		}
		parts = append(parts, string(n.Data))
	}
	return parts, line
}

// checkKeys refuses every key File does not declare, naming it and its line
// (only the outermost unknown one of a table), and suggests the right
// spelling of a key written with other capitals.
func checkKeys(path string, keys []docKey) error {
	var errs []error
	bad := map[string]bool{}
	for _, k := range keys {
		if _, ok := knownKeys[k.path]; ok {
			continue
		}
		bad[k.path] = true
		if i := strings.LastIndexByte(k.path, '.'); i >= 0 && bad[k.path[:i]] {
			continue
		}
		hint := ""
		if sib := siblings(k.path); len(sib) > 0 {
			hint = "known keys here: " + strings.Join(sib, ", ")
		}
		for known := range knownKeys {
			if strings.EqualFold(known, k.path) {
				hint = fmt.Sprintf("keys are case-sensitive: did you mean %q?", known)
			}
		}
		errs = append(errs, &FileError{File: path, Line: k.line, Key: k.path, Msg: hint, Unknown: true})
	}
	return errors.Join(errs...)
}

// siblings lists, sorted, the known keys at the level of path: those at the
// top for "a", those of table t for "t.a". An unknown table has none.
func siblings(path string) []string {
	prefix := ""
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		prefix = path[:i+1]
	}
	var out []string
	for k := range knownKeys {
		if rest, ok := strings.CutPrefix(k, prefix); ok && !strings.Contains(rest, ".") {
			out = append(out, rest)
		}
	}
	slices.Sort(out)
	return out
}
