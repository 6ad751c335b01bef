package abi

import (
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
