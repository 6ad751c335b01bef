package task

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Member is one member of a JSON object, in file order.
type Member struct {
	Key   string
	Value json.RawMessage
	Line  int // 1-based line of the key in the whole file
	Start int // byte offset of the value in the whole file
}

// Members lists the members of the JSON object at data[start:] in order,
// with lines counted in data. It fails when the value is not an object.
func Members(data []byte, start int) ([]Member, error) {
	dec := json.NewDecoder(bytes.NewReader(data[start:]))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not an object")
	}
	var out []Member
	lines := NewLines(data)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		line := lines.At(start + int(dec.InputOffset()))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		end := start + int(dec.InputOffset())
		out = append(out, Member{Key: key, Value: raw, Line: line, Start: end - len(raw)})
	}
	return out, nil
}

// Find returns the member key of ms.
func Find(ms []Member, key string) (Member, bool) {
	for _, m := range ms {
		if m.Key == key {
			return m, true
		}
	}
	return Member{}, false
}

// JSONError says where a JSON document is broken.
func JSONError(data []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("is not valid JSON (line %d: %v)", LineAt(data, int(se.Offset)), se)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("has an unexpected value (line %d: %v)", LineAt(data, int(te.Offset)), te)
	}
	return fmt.Sprintf("is not valid JSON: %v", err)
}

// StripJSONC turns JSON with comments and trailing commas (deno.jsonc,
// tsconfig-style files) into JSON of the same length and lines: comments
// and trailing commas become spaces.
func StripJSONC(in []byte) []byte {
	b := bytes.Clone(in)
	inStr := false
	lastComma := -1
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
			}
			continue
		}
		switch {
		case c == '"':
			inStr = true
			lastComma = -1
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			j := bytes.Index(b[i+2:], []byte("*/"))
			end := len(b)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			for k := i; k < end; k++ {
				if b[k] != '\n' {
					b[k] = ' '
				}
			}
			i = end - 1
		case c == ',':
			lastComma = i
		case c == '}' || c == ']':
			if lastComma >= 0 {
				b[lastComma] = ' '
			}
			lastComma = -1
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			lastComma = -1
		}
	}
	return b
}
