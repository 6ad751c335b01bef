package abi

// JSONLen bounds the bytes s takes inside a JSON string once encoding/json
// writes it: a byte it may escape (a control, a quote, a backslash, <, >,
// &, any byte of a non-ASCII character) counts as six, \u00XX. A size
// worked out with it is never less than the encoding's, so a result cut to
// a bound by it fits the bound.
func JSONLen(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			n += 6
		} else {
			n++
		}
	}
	return n
}
