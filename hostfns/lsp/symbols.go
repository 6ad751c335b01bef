package lsp

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// maxFlatSymbols bounds the flat symbols (SymbolInformation) decoded from
// one answer. A tree is decoded only as far as the answer can show (the
// call's maximum, in the order it is listed); a flat list further, since
// symbols in secret or denied files are skipped, not counted — ten times
// the default cap, a few milliseconds to decode.
const maxFlatSymbols = 10 * DefaultMaxResults

// decodeSymbols reads what textDocument/documentSymbol and
// workspace/symbol answer: DocumentSymbols (a tree) or SymbolInformation
// (flat). Exactly one of the two results is set. It decodes at most max
// symbols of a tree (maxFlatSymbols of a flat list) and steps over the
// rest without decoding them; cut says some were left. Its work does not
// grow with the answer past a byte scan: gopls answers a file of 200,000
// declarations with 44 MB of symbols, which took 5 s to decode whole, and
// the call's deadline does not wait for that.
func decodeSymbols(raw json.RawMessage, max int) (tree []documentSymbol, flat []symbolInformation, cut bool, err error) {
	s := &symbolScan{b: raw, left: max}
	s.space()
	if s.i == len(s.b) || s.null() {
		return nil, nil, false, nil
	}
	first, isFlat := true, false
	var kids [][]byte // the tree's top-level symbols' children, not yet read
	err = s.array(func() error {
		if s.left <= 0 {
			s.cut = true
			return errEnough
		}
		shape := shapeTree
		if first {
			shape = shapeUnknown
		} else if isFlat {
			shape = shapeFlat
		}
		it, err := s.item(shape)
		if err != nil {
			return err
		}
		if first {
			first, isFlat = false, it.located
			if isFlat {
				s.left = maxFlatSymbols - 1
			}
		}
		if isFlat {
			flat = append(flat, symbolInformation{Name: it.Name, Kind: it.Kind, ContainerName: it.container, Location: it.location})
		} else {
			tree = append(tree, it.documentSymbol)
			kids = append(kids, it.kids)
		}
		return nil
	})
	if errors.Is(err, errEnough) {
		err = nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	if isFlat {
		return nil, flat, s.cut, nil
	}
	if err := s.levels(tree, kids); err != nil {
		return nil, nil, false, err
	}
	return tree, nil, s.cut, nil
}

// levels reads the children of tree, whose raw arrays are kids, a level
// at a time: every top-level symbol before any child, every child before
// a grandchild. Read depth first, a class of 400 methods, each with its
// parameters and locals, used the whole budget, and the file's other
// top-level symbols were left out whatever depth was asked.
func (s *symbolScan) levels(tree []documentSymbol, kids [][]byte) error {
	type pending struct {
		sym *documentSymbol
		raw []byte
	}
	var queue []pending
	for i := range tree {
		if kids[i] != nil {
			queue = append(queue, pending{&tree[i], kids[i]})
		}
	}
	for ; len(queue) > 0; queue = queue[1:] {
		p := queue[0]
		sub := &symbolScan{b: p.raw, left: s.left}
		if sub.null() {
			continue
		}
		if s.left <= 0 {
			s.cut = s.cut || !sub.take(']') // an empty array leaves nothing out
			continue
		}
		out := []documentSymbol{}
		var raws [][]byte
		err := sub.array(func() error {
			if sub.left <= 0 {
				sub.cut = true
				return errEnough
			}
			it, err := sub.item(shapeTree)
			out = append(out, it.documentSymbol)
			raws = append(raws, it.kids)
			return err
		})
		if err != nil && !errors.Is(err, errEnough) {
			return err
		}
		s.left, s.cut = sub.left, s.cut || sub.cut
		p.sym.Children = out
		for j := range out {
			if raws[j] != nil {
				queue = append(queue, pending{&p.sym.Children[j], raws[j]})
			}
		}
	}
	return nil
}

// errEnough ends the reading of an answer once as many symbols as kept
// are read.
var errEnough = errors.New("enough symbols")

// errSyntax is an answer that is not the JSON it should be.
var errSyntax = errors.New("lsp: a symbol answer that is not JSON")

// symbolScan reads an answer's bytes, decoding only what it keeps: a
// symbol's scalar fields are each decoded by encoding/json, everything
// else is stepped over by a scan of its bytes. The answer was checked as
// JSON when its message was read (rpc.go); the scan only has to be safe.
type symbolScan struct {
	b    []byte
	i    int
	left int  // symbols still to decode
	cut  bool // symbols were stepped over
}

// symbolItem is one symbol of either shape.
type symbolItem struct {
	documentSymbol
	kids      []byte // a tree symbol's children, read later (levels)
	container string
	location  location
	located   bool // it had a location: the flat shape
}

// The shapes of a symbol answer: unknown until its first item is read.
const (
	shapeUnknown = iota
	shapeTree
	shapeFlat
)

// item reads one symbol object (null: a zero symbol) of the given shape,
// decoding the fields that shape has, as encoding/json would.
func (s *symbolScan) item(shape int) (it symbolItem, err error) {
	s.left--
	var fields [7][]byte // name, detail, kind, range, selectionRange, containerName, location
	names := [...]string{"name", "detail", "kind", "range", "selectionRange", "containerName", "location"}
	err = s.object(func(key string) error {
		if strings.EqualFold(key, "children") {
			if shape == shapeFlat {
				return s.skip()
			}
			b, err := s.value()
			it.kids = b
			return err
		}
		for i, n := range names {
			if strings.EqualFold(key, n) {
				b, err := s.value()
				fields[i] = b
				return err
			}
		}
		return s.skip()
	})
	if err != nil {
		return it, err
	}
	it.located = fields[6] != nil
	if shape == shapeUnknown {
		shape = shapeTree
		if it.located {
			shape = shapeFlat
		}
	}
	targets := [7]any{&it.Name, &it.Detail, &it.Kind, &it.Range, &it.SelectionRange, &it.container, &it.location}
	for i, b := range fields {
		tree := i < 5
		flat := i == 0 || i == 2 || i >= 5
		if b == nil || (shape == shapeTree && !tree) || (shape == shapeFlat && !flat) {
			continue
		}
		if err := json.Unmarshal(b, targets[i]); err != nil {
			return it, err
		}
	}
	return it, nil
}

// array reads a JSON array, calling each for every element.
func (s *symbolScan) array(each func() error) error {
	if !s.take('[') {
		return errSyntax
	}
	if s.take(']') {
		return nil
	}
	for {
		if err := each(); err != nil {
			return err
		}
		if s.take(']') {
			return nil
		}
		if !s.take(',') {
			return errSyntax
		}
	}
}

// object reads a JSON object (or null), calling field for each key with
// the value next.
func (s *symbolScan) object(field func(key string) error) error {
	if s.null() {
		return nil
	}
	if !s.take('{') {
		return errSyntax
	}
	if s.take('}') {
		return nil
	}
	for {
		s.space()
		kb, err := s.value()
		if err != nil || len(kb) == 0 || kb[0] != '"' {
			return errSyntax
		}
		var key string
		if err := json.Unmarshal(kb, &key); err != nil {
			return err
		}
		if !s.take(':') {
			return errSyntax
		}
		if err := field(key); err != nil {
			return err
		}
		if s.take('}') {
			return nil
		}
		if !s.take(',') {
			return errSyntax
		}
	}
}

// value steps over the next value and returns its bytes.
func (s *symbolScan) value() ([]byte, error) {
	s.space()
	start := s.i
	err := s.skip()
	return s.b[start:s.i], err
}

// skip steps over the next value, strings and nesting included.
func (s *symbolScan) skip() error {
	s.space()
	if s.i >= len(s.b) {
		return errSyntax
	}
	switch s.b[s.i] {
	case '"':
		return s.skipString()
	case '{', '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				if err := s.skipString(); err != nil {
					return err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					s.i++
					return nil
				}
			}
			s.i++
		}
		return errSyntax
	}
	start := s.i // a number, true, false or null
	for s.i < len(s.b) && !bytes.ContainsRune([]byte(",:]} \t\r\n"), rune(s.b[s.i])) {
		s.i++
	}
	if s.i == start {
		return errSyntax
	}
	return nil
}

// skipString steps over a string, s.i at its opening quote.
func (s *symbolScan) skipString() error {
	for s.i++; s.i < len(s.b); {
		j := bytes.IndexAny(s.b[s.i:], `"\`)
		if j < 0 {
			break
		}
		s.i += j
		if s.b[s.i] == '"' {
			s.i++
			return nil
		}
		s.i += 2 // a backslash and what it escapes
	}
	s.i = len(s.b)
	return errSyntax
}

// take steps over c, after white space, when it comes next.
func (s *symbolScan) take(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// null steps over a null when it comes next.
func (s *symbolScan) null() bool {
	s.space()
	if bytes.HasPrefix(s.b[s.i:], []byte("null")) {
		s.i += 4
		return true
	}
	return false
}

func (s *symbolScan) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\r' || s.b[s.i] == '\n') {
		s.i++
	}
}
