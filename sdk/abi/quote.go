package abi

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// MaxQuoted is how many bytes of a string a message quotes (Quote): a
// path, a revision or a pattern from a call is echoed back so the model
// sees which one failed, and 200 bytes name any real one, while a 10 MB
// argument echoed whole made a 10 MB error (and a 20 MB log line).
const MaxQuoted = 200

// Quote renders s for an error message or a log line: Go-quoted (control
// characters and invalid UTF-8 escaped), cut to MaxQuoted bytes at a
// character with an ellipsis and its whole size when longer:
// "xxxx…" (5000 bytes).
func Quote(s string) string {
	if len(s) <= MaxQuoted {
		return strconv.Quote(s)
	}
	return strconv.Quote(Cut(s, MaxQuoted)) + " (" + strconv.Itoa(len(s)) + " bytes)"
}

// Cut shortens s to at most n bytes, on a character's start, and marks
// the cut with an ellipsis: a name or a line a call or a program chose,
// before it is stored or shown.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	at := n
	for at > 0 && !utf8.RuneStart(s[at]) {
		at--
	}
	return s[:at] + "…"
}

// Number renders a number from a call for a message: an integer below
// 1e21 in full, any other in the shortest form that names it (1e+308,
// 0.1, 1e-300), never the hundreds of digits a float64 can be written
// with: a call passing 1e308 was answered with 309 of them.
func Number(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
