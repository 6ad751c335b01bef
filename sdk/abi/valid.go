package abi

// validJSON reports whether b is one JSON value, with white space around it
// allowed, exactly as encoding/json's Valid does (strings are not checked
// for UTF-8; nesting deeper than 10,000 is refused), but without its
// scanner's call per byte: the host checks every structured content a
// plugin sends in its body with it, and encoding/json's scan was most of
// what a listing of 80 entries cost the host. FuzzValid holds the two to
// the same answers.
func validJSON(b []byte) bool {
	i, ok := validValue(b, skipSpace(b, 0), 0)
	return ok && skipSpace(b, i) == len(b)
}

// ValidJSON is validJSON, for the host's writer of answers, which checks
// the structured content it copies into the JSON-RPC around it.
func ValidJSON(b []byte) bool { return validJSON(b) }

// maxJSONDepth is encoding/json's bound on nesting.
const maxJSONDepth = 10000

func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// validValue checks the value starting at b[i] and returns where it ends.
func validValue(b []byte, i, depth int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch c := b[i]; {
	case c == '{' || c == '[':
		if depth++; depth > maxJSONDepth {
			return i, false
		}
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == closing {
			return i + 1, true
		}
		for {
			var ok bool
			if c == '{' {
				if i >= len(b) || b[i] != '"' {
					return i, false
				}
				if i, ok = validString(b, i); !ok {
					return i, false
				}
				if i = skipSpace(b, i); i >= len(b) || b[i] != ':' {
					return i, false
				}
				i = skipSpace(b, i+1)
			}
			if i, ok = validValue(b, i, depth); !ok {
				return i, false
			}
			if i = skipSpace(b, i); i >= len(b) {
				return i, false
			}
			switch b[i] {
			case ',':
				i = skipSpace(b, i+1)
			case closing:
				return i + 1, true
			default:
				return i, false
			}
		}
	case c == '"':
		return validString(b, i)
	case c == 't':
		return validLiteral(b, i, "true")
	case c == 'f':
		return validLiteral(b, i, "false")
	case c == 'n':
		return validLiteral(b, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return validNumber(b, i)
	}
	return i, false
}

// validString checks the string starting at the quote b[i].
func validString(b []byte, i int) (int, bool) {
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		case c == '\\':
			if i++; i >= len(b) {
				return i, false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for range 4 {
					if i++; i >= len(b) || !isHex(b[i]) {
						return i, false
					}
				}
			default:
				return i, false
			}
		}
	}
	return i, false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func validLiteral(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

// validNumber checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func validNumber(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	digits := func() bool {
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i > start
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits():
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return i, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return i, false
		}
	}
	return i, true
}
