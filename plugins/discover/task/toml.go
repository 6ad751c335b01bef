package task

import (
	"bufio"
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

// Sections splits an INI or TOML file into its sections, for line numbers
// and for INI files read as such. Keys before any header belong to a
// section named "". Quotes around TOML keys are dropped.
func Sections(data []byte) []Section {
	out := []Section{{}}
	sc := bufio.NewScanner(bytes.NewReader(StripBOM(data)))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		raw := strings.TrimRight(sc.Text(), "\r")
		line := strings.TrimSpace(raw)
		cur := &out[len(out)-1]
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
		case strings.HasPrefix(line, "[") && strings.Contains(line, "]"):
			name := strings.Trim(line[:strings.LastIndex(line, "]")+1], "[]")
			out = append(out, Section{Name: strings.TrimSpace(name), Line: n})
		case raw[0] == ' ' || raw[0] == '\t':
			if k := len(cur.Keys); k > 0 {
				cur.Keys[k-1].Value += "\n" + line
			}
		default:
			i := strings.IndexAny(line, "=:")
			if i <= 0 {
				continue
			}
			key := strings.Trim(strings.TrimSpace(line[:i]), `"'`)
			cur.Keys = append(cur.Keys, KeyLine{Key: key, Value: strings.TrimSpace(line[i+1:]), Line: n})
		}
	}
	return out
}

// SectionNamed returns the section name.
func SectionNamed(ss []Section, name string) (Section, bool) {
	for _, s := range ss {
		if s.Name == name {
			return s, true
		}
	}
	return Section{}, false
}

// KeyLineOf returns the line of key in section name, or of the header
// when the key is not on a line of its own; 0 when neither is there.
func KeyLineOf(ss []Section, name, key string) int {
	s, ok := SectionNamed(ss, name)
	if !ok {
		return 0
	}
	for _, k := range s.Keys {
		if k.Key == key {
			return k.Line
		}
	}
	return s.Line
}

// TOMLError says where a TOML document is broken.
func TOMLError(err error) string {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, _ := de.Position()
		return fmt.Sprintf("line %d: %v", row, de)
	}
	return err.Error()
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
