package task

import (
	"bytes"
	"sort"
)

// Lines finds the line of a byte offset in one document in O(log n):
// the offsets where its lines start, counted once. A discoverer that
// numbers many keys or matches of one file uses it rather than LineAt,
// which counts from the start every time (a quadratic parse of a file
// of 20,000 scripts).
type Lines []int

// NewLines indexes the lines of data.
func NewLines(data []byte) Lines {
	l := Lines{0}
	for off := 0; ; {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return l
		}
		off += i + 1
		l = append(l, off)
	}
}

// At is the 1-based line of the byte offset off (LineAt's answer).
func (l Lines) At(off int) int {
	if off < 0 {
		return 0
	}
	// The lines that start at or before off, the first line among them.
	return sort.Search(len(l), func(i int) bool { return l[i] > off })
}

// SplitLines calls line for each line of data, without its line break
// (nor a \r before it), with its 1-based number; unlike a bufio.Scanner it
// has no longest line and never stops early.
func SplitLines(data []byte, line func(text string, n int)) {
	for n := 1; len(data) > 0; n++ {
		l := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line(string(bytes.TrimSuffix(l, []byte("\r"))), n)
	}
}
