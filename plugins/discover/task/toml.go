package task

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// Section is one "[header]" of an INI or TOML file: its name, the line of
// the header and its keys in order with their lines. Continuation lines
// (indented, in INI) are joined to their key's value.
type Section struct {
	Name string
	Line int
	Keys []KeyLine
}

// KeyLine is one "key = value" line.
type KeyLine struct {
	Key, Value string
	Line       int
}

// INI is an INI or TOML file split into its sections, for line numbers
// and for INI files read as such, with the first section of each name and
// the first line of each key indexed: a file of many keys is looked up in
// constant time a key.
type INI struct {
	Sections []Section
	first    map[string]int   // index in Sections of the first section of a name
	keys     []map[string]int // by section: the line of the first line of a key
}

// ParseINI splits an INI or TOML file into its sections. Keys before any
// header belong to a section named "". Quotes around TOML keys are
// dropped. It reads every line however long, in time linear in the file.
func ParseINI(data []byte) *INI {
	f := &INI{Sections: []Section{{}}}
	var cont strings.Builder // the continuation lines of the last key
	flush := func() {
		cur := &f.Sections[len(f.Sections)-1]
		if k := len(cur.Keys); k > 0 && cont.Len() > 0 {
			cur.Keys[k-1].Value += cont.String()
		}
		cont.Reset()
	}
	SplitLines(StripBOM(data), func(raw string, n int) {
		line := strings.TrimSpace(raw)
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
		case strings.HasPrefix(line, "[") && strings.Contains(line, "]"):
			flush()
			name := strings.Trim(line[:strings.LastIndex(line, "]")+1], "[]")
			f.Sections = append(f.Sections, Section{Name: strings.TrimSpace(name), Line: n})
		case raw[0] == ' ' || raw[0] == '\t':
			if len(f.Sections[len(f.Sections)-1].Keys) > 0 {
				cont.WriteString("\n" + line)
			}
		default:
			i := strings.IndexAny(line, "=:")
			if i <= 0 {
				return
			}
			flush()
			cur := &f.Sections[len(f.Sections)-1]
			key := strings.Trim(strings.TrimSpace(line[:i]), `"'`)
			cur.Keys = append(cur.Keys, KeyLine{Key: key, Value: strings.TrimSpace(line[i+1:]), Line: n})
		}
	})
	flush()
	f.first = map[string]int{}
	f.keys = make([]map[string]int, len(f.Sections))
	for i, s := range f.Sections {
		if _, ok := f.first[s.Name]; !ok {
			f.first[s.Name] = i
		}
		f.keys[i] = map[string]int{}
		for _, k := range s.Keys {
			if _, ok := f.keys[i][k.Key]; !ok {
				f.keys[i][k.Key] = k.Line
			}
		}
	}
	return f
}

// Section returns the first section named name.
func (f *INI) Section(name string) (Section, bool) {
	i, ok := f.first[name]
	if !ok {
		return Section{}, false
	}
	return f.Sections[i], true
}

// KeyLine returns the line of key in the first section named name, or of
// its header when the key is not on a line of its own; 0 when neither is
// there.
func (f *INI) KeyLine(name, key string) int {
	i, ok := f.first[name]
	if !ok {
		return 0
	}
	if l, ok := f.keys[i][key]; ok {
		return l
	}
	return f.Sections[i].Line
}

// maxTOMLKeys bounds the keys and tables of a TOML file decoded.
// go-toml's check for duplicate keys compares each key with those before
// it, and each table header with the tables before it: a mise.toml of
// 150,000 tasks took 27 s of CPU natively, a pyproject.toml of 70,000
// "[tN]" headers 24 s (each ran the discoverer past its 10 s inside wasm).
// 5,000 keys cost about 30 ms; real manifests and configs hold hundreds.
// The "=" signs of the file are counted, at least as many as its keys,
// inline tables' too, and the lines that start with "[", at least as many
// as its table headers.
const maxTOMLKeys = 5000

// errTooManyKeys says a TOML file was not decoded for its size.
var errTooManyKeys = fmt.Errorf("has more than %d keys (counting its = signs and [table] lines), past juju's bound", maxTOMLKeys)

// UnmarshalTOML decodes a TOML file of at most maxTOMLKeys keys and
// tables into v.
func UnmarshalTOML(data []byte, v any) error {
	if tomlKeys(data) > maxTOMLKeys {
		return errTooManyKeys
	}
	return toml.Unmarshal(data, v)
}

// tomlKeys counts the "=" signs of data and its lines whose first
// character other than a space or tab is "[", in one pass.
func tomlKeys(data []byte) int {
	n := bytes.Count(data, []byte("="))
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		if l := bytes.TrimLeft(line, " \t"); len(l) > 0 && l[0] == '[' {
			n++
		}
	}
	return n
}

// TOMLError says why a TOML document was not read: where it is broken, or
// that it is too large; a phrase after the file's name.
func TOMLError(err error) string {
	if errors.Is(err, errTooManyKeys) {
		return err.Error()
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, _ := de.Position()
		return fmt.Sprintf("is not valid TOML (line %d: %v)", row, de)
	}
	return fmt.Sprintf("is not valid TOML (%v)", err)
}

// SortedKeys returns the keys of m in order.
func SortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
