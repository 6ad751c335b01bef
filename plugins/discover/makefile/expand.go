package makefile

import (
	"fmt"
	"strings"
)

// unknown is the value of a variable set by running a command (!=): a
// reference expand never resolves.
const unknown = "$(!)"

// Bounds of expansion. maxExpandDepth bounds variables that refer to
// variables. Depth alone does not bound the work: ten variables that each
// refer ten times to the one before expand to 10^10 bytes from a
// 300-byte Makefile. maxExpansion is the longest text one include line
// may expand to: a MiB holds tens of thousands of file names, past any
// real include. maxExpandWork is what expansion may scan and write for a
// Makefile and all it includes together, 16 such lines; and maxGlobs the
// folder listings its globs and $(wildcard …) may ask the host for (real
// Makefiles use a handful). An include past one is not followed, with a
// warning, and the targets found are kept.
const (
	maxExpandDepth = 10
	maxExpansion   = 1 << 20
	maxExpandWork  = 16 << 20
	maxGlobs       = 256
)

// expand expands the references of text that can be read without running
// anything — literal variables, $$, and $(wildcard …), whose patterns are
// matched against the folder listings — and splits it into words. It
// reports false when a reference cannot be read so: a function other than
// wildcard (a $(shell …) above all), or a variable that is not set or was
// set by a command.
func (p *parser) expand(text string, depth int) ([]string, bool) {
	s, ok := p.expandString(text, depth)
	return strings.Fields(s), ok
}

func (p *parser) expandString(text string, depth int) (string, bool) {
	if depth > maxExpandDepth {
		return "", false
	}
	if p.work -= len(text) + 1; p.work < 0 {
		p.bound = fmt.Sprintf("expanding the includes' names took more than %d MiB", maxExpandWork>>20)
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '$' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(text) {
			return "", false
		}
		var ref string
		switch open := text[i+1]; open {
		case '$':
			b.WriteByte('$')
			i++
			continue
		case '(', '{':
			end := closing(text, i+1)
			if end < 0 {
				return "", false
			}
			ref, i = text[i+2:end], end
		default:
			ref, i = string(open), i+1
		}
		v, ok := p.reference(ref, depth)
		if !ok {
			return "", false
		}
		if b.Len()+len(v) > maxExpansion {
			p.bound = fmt.Sprintf("the names expand to more than %d MiB", maxExpansion>>20)
			return "", false
		}
		if p.work -= len(v); p.work < 0 {
			p.bound = fmt.Sprintf("expanding the includes' names took more than %d MiB", maxExpandWork>>20)
			return "", false
		}
		b.WriteString(v)
	}
	return b.String(), true
}

// reference reads one $(…): a variable or $(wildcard …).
func (p *parser) reference(ref string, depth int) (string, bool) {
	if arg, ok := strings.CutPrefix(ref, "wildcard "); ok {
		words, ok := p.expand(arg, depth+1)
		if !ok {
			return "", false
		}
		var out []string
		for _, w := range words {
			out = append(out, p.glob(w)...)
		}
		return strings.Join(out, " "), true
	}
	if strings.ContainsAny(ref, " \t:,$") {
		return "", false // another function, a substitution reference
	}
	v, ok := p.vars[ref]
	if !ok {
		return "", false
	}
	return p.expandString(v.String(), depth+1)
}

// closing returns the index of the bracket that closes the one at open.
func closing(text string, open int) int {
	o, c := text[open], byte(')')
	if o == '{' {
		c = '}'
	}
	n := 0
	for i := open; i < len(text); i++ {
		switch text[i] {
		case o:
			n++
		case c:
			if n--; n == 0 {
				return i
			}
		}
	}
	return -1
}
