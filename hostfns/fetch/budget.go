package fetch

import (
	"bytes"
	"context"
	"io"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Bounds of the part of a page the DOM is built for (the rest is not
// converted, and the note says so). The parser's DOM and the converter's
// work grow with the page's nodes (elements and text runs) and its bytes:
// a dense 1 MB documentation page makes about 120,000 nodes, and 8 MiB
// of "<p><b>x" made 7 million, 1 GB (docs/RATIONALE.md).
const (
	maxDOMBytes = 2 << 20
	maxNodes    = 250_000
	// maxFormatting bounds the formatting elements domPrefix keeps open
	// after the last marker, which each formatting start tag looks
	// through: past it the page stops there. The parser would reopen them
	// all on its stack of open elements, which it refuses past 512.
	maxFormatting = 512
)

// formatting are the HTML formatting elements: the parser keeps a list of
// those open, and reopens ("reconstructs") each one a block has closed
// before the next text or inline element, so a page that leaves them open
// costs a node for each of them at every block.
var formatting = map[atom.Atom]bool{
	atom.A: true, atom.B: true, atom.Big: true, atom.Code: true, atom.Em: true, atom.Font: true, atom.I: true,
	atom.Nobr: true, atom.S: true, atom.Small: true, atom.Strike: true, atom.Strong: true, atom.Tt: true, atom.U: true,
}

// scopes are the elements that put a marker in that list: what was open
// outside them is not reopened inside, and what opened inside is dropped
// at their end.
var scopes = map[atom.Atom]bool{
	atom.Applet: true, atom.Object: true, atom.Marquee: true, atom.Template: true,
	atom.Td: true, atom.Th: true, atom.Caption: true,
}

// reopening are the start tags before which the parser does not reopen
// the formatting elements (it closes an open <p> or list item first, which
// is what closes them).
var reopening = func() map[atom.Atom]bool {
	m := map[atom.Atom]bool{atom.Li: true, atom.Dd: true, atom.Dt: true, atom.Listing: true, atom.Plaintext: true,
		atom.Xmp: true, atom.Search: true, atom.Center: true, atom.Dir: true, atom.Hgroup: true, atom.Menu: true,
		atom.Tr: true, atom.Tbody: true, atom.Thead: true, atom.Tfoot: true}
	for a := range blocks {
		m[a] = true
	}
	return m
}()

// domPrefix returns how many bytes of page to parse (end) so that the DOM stays
// within budget nodes: all of them, or the page up to the token where an
// estimate of the parser's nodes passes the budget, and the nodes estimated. The estimate reads the
// page's tokens once (no tree): a node for each start tag, text run and
// comment, and for each formatting element left open a node again at
// every text or inline element after a block or an end tag that may have
// closed it, as the parser reopens them (at most three alike, as it keeps;
// one <a>, one <nobr>).
func domPrefix(page []byte, budget int) (end, nodes int) {
	type open struct {
		a          atom.Atom
		start, end int // the start tag as written in page, which tells alike apart
	}
	var (
		list   []open // the open formatting elements; a zero atom is a marker
		closed int    // how many of the list's last ones a block may have closed
	)
	afterMarker := func() int {
		for i := len(list) - 1; i >= 0; i-- {
			if list[i].a == 0 {
				return i + 1
			}
		}
		return 0
	}
	drop := func(a atom.Atom) {
		for i, m := len(list)-1, afterMarker(); i >= m; i-- {
			if list[i].a == a {
				list = append(list[:i], list[i+1:]...)
				closed = min(closed, len(list)-afterMarker())
				return
			}
		}
	}
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return len(page), nodes
		}
		raw := len(z.Raw())
		switch tt {
		case html.TextToken:
			nodes += 1 + closed
			closed = 0
		case html.CommentToken:
			nodes++
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			nodes++
			switch {
			case reopening[a]:
				closed = len(list) - afterMarker()
			default:
				nodes += closed
				closed = 0
			}
			switch {
			case scopes[a]:
				list = append(list, open{})
			case formatting[a] && tt == html.StartTagToken:
				tag := page[end : end+raw]
				if a == atom.A || a == atom.Nobr {
					drop(a)
				}
				alike := 0
				for i, m := len(list)-1, afterMarker(); i >= m; i-- {
					if list[i].a == a && bytes.Equal(page[list[i].start:list[i].end], tag) {
						if alike++; alike == 3 {
							list = append(list[:i], list[i+1:]...)
							break
						}
					}
				}
				list = append(list, open{a: a, start: end, end: end + raw})
				if len(list)-afterMarker() > maxFormatting {
					return end, nodes
				}
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch {
			case formatting[a]:
				drop(a)
			case scopes[a] && afterMarker() > 0:
				list = list[:afterMarker()-1]
				closed = 0
			default:
				closed = len(list) - afterMarker()
			}
		}
		if nodes > budget {
			return end, nodes
		}
		end += raw
	}
}

// ctxReader reads r until ctx ends, in small reads, so that the HTML
// parser reading it stops within one of them once ctx has ended.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p[:min(len(p), 64<<10)])
}
