package edit

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A replace_in_files that finds oldString in no file says where it nearly
// is: the first file and line holding it once white space (tabs against
// spaces, trailing blanks, line breaks) and characters that look alike
// (curly against straight quotes, no-break and zero-width spaces) are
// compared loosely. The replacement stays literal; this only tells the
// model which line to read and copy, where "check the text" left it to
// guess what differs.

// looseRunes maps a character to the plain one it is taken for, or to -1
// for one that shows as nothing.
var looseRunes = map[rune]rune{
	'\u2018': '\'', '\u2019': '\'', '\u201a': '\'', '\u201b': '\'',
	'\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"',
	'\u2010': '-', '\u2011': '-', '\u2013': '-', '\u2212': '-',
	'\u200b': -1, '\u200c': -1, '\u200d': -1, '\u2060': -1, '\u00ad': -1,
}

// looseFold is s with lookalikes made plain, what shows as nothing left
// out, and each run of white space one space; lines, when not nil,
// gets the line of s each byte of the result came from.
func looseFold(s string, lines *[]int32) string {
	var b strings.Builder
	b.Grow(len(s))
	line, space := int32(1), false
	for _, r := range s {
		if r == '\n' {
			line++
		}
		if f, ok := looseRunes[r]; ok {
			r = f
		}
		switch {
		case r < 0:
			continue
		case unicode.IsSpace(r):
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
			if lines != nil {
				*lines = append(*lines, line)
			}
		}
		space = false
		n := b.Len()
		b.WriteRune(r)
		if lines != nil {
			for range b.Len() - n {
				*lines = append(*lines, line)
			}
		}
	}
	return b.String()
}

// looseLine returns the line of body where old starts once both are
// folded loosely, or 0. word, old's longest run of letters and digits,
// must be in body as it is first, so most files cost one search.
func looseLine(body []byte, old, word string) int {
	if word == "" || !bytes.Contains(body, []byte(word)) {
		return 0
	}
	fo := looseFold(old, nil)
	if fo == "" {
		return 0
	}
	var lines []int32
	fb := looseFold(string(body), &lines)
	i := strings.Index(fb, fo)
	if i < 0 {
		return 0
	}
	return int(lines[i])
}

// longestWord is s's longest run of ASCII letters and digits.
func longestWord(s string) string {
	best, start := "", -1
	for i := 0; i <= len(s); i++ {
		c := byte(0)
		if i < len(s) {
			c = s[i]
		}
		word := c < utf8.RuneSelf && ('a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '_')
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			if i-start > len(best) {
				best = s[start:i]
			}
			start = -1
		}
	}
	return best
}
