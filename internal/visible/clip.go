package visible

import (
	"strings"
	"unicode/utf8"
)

// Ellipsis marks where Clip cut a rendering.
const Ellipsis = "…"

// Clip shortens a rendering (of String, Quote or Args) to at most n
// characters, Ellipsis included, without splitting an escape or a marker.
// It returns what to show and how many characters of the rendering were
// left out (0: all of it shows, and shown is rendered itself). The caller
// says plainly that text was left out, and where to see all of it.
func Clip(rendered string, n int) (shown string, left int) {
	total := utf8.RuneCountInString(rendered)
	if total <= n {
		return rendered, 0
	}
	room := n - utf8.RuneCountInString(Ellipsis)
	kept, runes := 0, 0
	for kept < len(rendered) {
		size, count := token(rendered[kept:])
		if runes+count > room {
			break
		}
		kept += size
		runes += count
	}
	return rendered[:kept] + Ellipsis, total - runes
}

// token measures the first token of a rendering: an escape, a marker or
// one character. It returns its size in bytes and in characters.
func token(s string) (size, count int) {
	switch {
	case s[0] == '\\' && len(s) > 1:
		n := 2 // \\ \" \t \n \r
		switch s[1] {
		case 'x':
			n = 4
		case 'u':
			n = 6
		case 'U':
			n = 10
		}
		return min(n, len(s)), min(n, len(s))
	case strings.HasPrefix(s, string(markOpen)):
		if end := strings.IndexRune(s, markClose); end > 0 {
			size = end + utf8.RuneLen(markClose)
			return size, utf8.RuneCountInString(s[:size])
		}
	}
	_, size = utf8.DecodeRuneInString(s)
	return size, 1
}
