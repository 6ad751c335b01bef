package search

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/jujutools/juju/sdk/abi"
)

// keepBytes is how much of a line the host keeps to show it: more than
// MaxLineBytes, so that the cut falls where it would on the whole line.
const keepBytes = 4 * MaxLineBytes

// candidate is a matching line rg nominates: its number, what rg read there
// (the length and a hash of the line, without its line break) and the
// column of the first match in it. rg's bytes are never shown: the host
// shows the line it reads itself, when it is the same.
type candidate struct {
	n      int
	size   int
	sum    uint64
	column int
	// start is the byte offset in the line where the first match begins.
	start int
	// omitted: rg's text is its note that the line, of maxColumns bytes
	// or more, was left out.
	omitted bool
	// lastCR: rg's text ends in a "\r" that, in --crlf mode, it adds to
	// a file's last line when that line has no line break; lastSum is
	// the hash of the text without it.
	lastCR  bool
	lastSum uint64
}

// hostFile is what the host's own read of a file confirms.
type hostFile struct {
	// matches are the candidates whose line the host read the same, in
	// order of line.
	matches []candidate
	// dropped says a candidate was not confirmed: the host read another
	// line at its number, or the file ends before it.
	dropped bool
	// long are the numbers of the lines rg left out as too long which the
	// host read as that long: named, never counted, as their match is
	// not confirmed.
	long []int
	// text holds the host's text of each line shown (the candidates' and
	// the context lines around them), by line number.
	text map[int]string
}

// verify reads r, a file the policy opened, with lr up to the last line it
// needs, and checks every candidate (sorted by line, each line once)
// against the line read at its number. With show it keeps the text of the
// candidates' lines and of context lines either side of them.
func verify(ctx context.Context, lr *lineReader, r io.Reader, cands []candidate, context int, show bool) (*hostFile, error) {
	hf := &hostFile{}
	if len(cands) == 0 {
		return hf, nil
	}
	if show {
		hf.text = make(map[int]string)
	} else {
		context = 0
	}
	lr.reset(r)
	last := cands[len(cands)-1].n + context
	near, next := 0, 0 // the first candidate whose context reaches line n; the next to check
	for n := 1; n <= last; n++ {
		if n%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		for near < len(cands) && cands[near].n+context < n {
			near++
		}
		keep := 0
		if show && near < len(cands) && cands[near].n-context <= n {
			keep = keepBytes
		}
		check := next < len(cands) && cands[next].n == n
		if keep > 0 && check {
			// The head must reach past the match for the line to be
			// shown around it (hostLine.text).
			keep = min(max(keepBytes, cands[next].start+MaxLineBytes), maxColumns)
		}
		ln, err := lr.next(keep, check)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if keep > 0 {
			at := 0
			if check {
				at = cands[next].start
			}
			hf.text[n] = ln.text(at)
		}
		if check {
			c := cands[next]
			next++
			switch {
			case c.omitted && ln.size >= maxColumns-1: // rg counts the line break
				hf.long = append(hf.long, c.n)
			case ln.size == c.size && ln.sum == c.sum,
				c.lastCR && !ln.broken && ln.size == c.size-1 && ln.sum == c.lastSum:
				hf.matches = append(hf.matches, c)
			default:
				hf.dropped = true
			}
		}
	}
	if next < len(cands) {
		hf.dropped = true
	}
	return hf, nil
}

// show returns the confirmed matches with the host's text, and up to
// context lines of the host's before and after each.
func (hf *hostFile) show(context int) []abi.SearchMatch {
	out := make([]abi.SearchMatch, 0, len(hf.matches))
	for _, m := range hf.matches {
		sm := abi.SearchMatch{Line: m.n, Column: m.column, Text: hf.text[m.n]}
		for k := max(1, m.n-context); k < m.n; k++ {
			sm.Before = append(sm.Before, hf.text[k])
		}
		for k := m.n + 1; k <= m.n+context; k++ {
			t, ok := hf.text[k]
			if !ok {
				break // the file ends
			}
			sm.After = append(sm.After, t)
		}
		out = append(out, sm)
	}
	return out
}

// lineReader reads files line by line, keeping of each line only what is
// asked for, so that a long line costs no memory. One serves every file of
// a search, so that its buffer is made once.
type lineReader struct {
	raw  *bufio.Reader // over the file
	br   *bufio.Reader // raw, or a decoder over it
	h    maphash.Hash
	head []byte
}

// newLineReader returns a line reader that hashes lines with seed.
func newLineReader(seed maphash.Seed) *lineReader {
	lr := &lineReader{raw: bufio.NewReaderSize(nil, 32<<10)}
	lr.h.SetSeed(seed)
	return lr
}

// reset starts reading r from its first line.
func (lr *lineReader) reset(r io.Reader) {
	lr.raw.Reset(r)
	lr.br = decode(lr.raw)
}

// hostLine is one line as the host read it, without its line break ("\n";
// a "\r" before it is part of the line, as for rg).
type hostLine struct {
	head []byte // its first keepBytes bytes, when kept
	long bool   // it is longer than head
	size int    // its length
	sum  uint64 // its hash, when checked
	// broken: a line break ends it (the file's last line may have none)
	broken bool
}

// decode mirrors ripgrep's default encoding handling, so that the host
// numbers and spells lines as rg does: a file that starts with a byte-order
// mark (UTF-8, UTF-16LE or UTF-16BE) is decoded to UTF-8 without it; any
// other file is read as it is.
func decode(br *bufio.Reader) *bufio.Reader {
	head, _ := br.Peek(3)
	if bytes.HasPrefix(head, []byte("\xef\xbb\xbf")) || bytes.HasPrefix(head, []byte("\xff\xfe")) || bytes.HasPrefix(head, []byte("\xfe\xff")) {
		return bufio.NewReaderSize(transform.NewReader(br, unicode.BOMOverride(transform.Nop)), 32<<10)
	}
	return br
}

// next reads the next line: its first keep bytes, and with sum its hash.
// It returns io.EOF when no line is left (a last line without a line break
// is a line).
func (lr *lineReader) next(keep int, sum bool) (hostLine, error) {
	var ln hostLine
	lr.head = lr.head[:0]
	if sum {
		lr.h.Reset()
	}
	for {
		chunk, err := lr.br.ReadSlice('\n')
		if err == nil {
			chunk = chunk[:len(chunk)-1] // the line break, which rg does not print
			ln.broken = true
		}
		ln.size += len(chunk)
		if sum {
			lr.h.Write(chunk)
		}
		if room := keep - len(lr.head); room > 0 {
			lr.head = append(lr.head, chunk[:min(room, len(chunk))]...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && ln.size == 0:
			return ln, io.EOF
		case err != nil && !errors.Is(err, io.EOF):
			return ln, err
		}
		if keep > 0 {
			ln.head, ln.long = lr.head, ln.size > len(lr.head)
		}
		if sum {
			ln.sum = lr.h.Sum64()
		}
		return ln, nil
	}
}

// text is the line as results show it: valid UTF-8, without a final
// "\r", cut past MaxLineBytes. A match that begins at byte at of a longer
// line, too far in for the first MaxLineBytes to show it, is shown in a
// window of MaxLineBytes that starts a little before it, and the text says
// what was cut before it.
func (ln hostLine) text(at int) string {
	head := ln.head
	if !ln.long {
		head = bytes.TrimRight(head, "\r")
		if len(head) <= MaxLineBytes {
			return strings.ToValidUTF8(string(head), "\uFFFD")
		}
	}
	from := 0
	if at+matchRoom > MaxLineBytes && at < len(head) {
		from = max(0, at-matchLead)
		for from > 0 && !utf8.RuneStart(head[from]) {
			from--
		}
	}
	to := min(from+MaxLineBytes, len(head))
	for to > from && to < len(head) && !utf8.RuneStart(head[to]) {
		to--
	}
	s := strings.ToValidUTF8(string(head[from:to]), "\uFFFD")
	if from > 0 {
		s = fmt.Sprintf("…[%d bytes cut] %s", from, s)
	}
	if to < len(head) || ln.long {
		s += " …[line cut]"
	}
	return s
}

// A match shown in a window of a long line has matchLead bytes of the line
// before it; the window moves off the line's start only when fewer than
// matchRoom bytes of the first MaxLineBytes would show the match.
const (
	matchLead = 120
	matchRoom = 200
)
