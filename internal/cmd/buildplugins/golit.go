package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"reflect"
	"strconv"
)

// goLiteral writes v as a Go expression of its type: the embedded
// manifests are written into the generated file as Go values, so that juju
// does not decode their JSON on every start. It knows the kinds a manifest
// is made of (structs, pointers to them, slices, strings, bools, integers)
// and writes a json.RawMessage as a conversion of a string constant. Zero
// fields are left out, so the value reads back equal. imports collects the
// packages the expression names.
func goLiteral(b *bytes.Buffer, v reflect.Value, imports map[string]bool) error {
	t := v.Type()
	if t == reflect.TypeFor[json.RawMessage]() {
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		imports["encoding/json"] = true
		fmt.Fprintf(b, "json.RawMessage(%s)", strconv.Quote(string(v.Bytes())))
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		b.WriteByte('&')
		return goLiteral(b, v.Elem(), imports)
	case reflect.Struct:
		b.WriteString(typeName(t, imports))
		b.WriteString("{\n")
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				return fmt.Errorf("%s.%s: an unexported field cannot be written", t, f.Name)
			}
			if v.Field(i).IsZero() {
				continue
			}
			b.WriteString(f.Name)
			b.WriteString(": ")
			if err := goLiteral(b, v.Field(i), imports); err != nil {
				return err
			}
			b.WriteString(",\n")
		}
		b.WriteByte('}')
	case reflect.Slice:
		if v.IsNil() {
			b.WriteString("nil")
			return nil
		}
		b.WriteString("[]")
		b.WriteString(typeName(t.Elem(), imports))
		b.WriteString("{\n")
		for i := range v.Len() {
			if err := goLiteral(b, v.Index(i), imports); err != nil {
				return err
			}
			b.WriteString(",\n")
		}
		b.WriteByte('}')
	case reflect.String:
		if t.PkgPath() != "" {
			fmt.Fprintf(b, "%s(%s)", typeName(t, imports), strconv.Quote(v.String()))
		} else {
			b.WriteString(strconv.Quote(v.String()))
		}
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int64, reflect.Int32:
		if t.PkgPath() != "" {
			return fmt.Errorf("%s: a named integer type is not supported", t)
		}
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	default:
		return fmt.Errorf("%s: a %s cannot be written as a Go literal here", t, t.Kind())
	}
	return nil
}

// typeName is t as the generated file names it, its package qualified by
// the last element of its path.
func typeName(t reflect.Type, imports map[string]bool) string {
	if t.PkgPath() == "" {
		return t.String()
	}
	imports[t.PkgPath()] = true
	return path.Base(t.PkgPath()) + "." + t.Name()
}
