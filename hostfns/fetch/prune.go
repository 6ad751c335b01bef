package fetch

import (
	"context"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Bounds of the page handed to html-to-markdown. Its renderers for quotes,
// lists, emphasis, links, headings, code and tables render their content
// into a buffer of their own and copy it, quotes and lists prefixing every
// line, so work and output grow with the nesting depth times the content:
// 505 nested <blockquote> over 38 KB took 46 s and gave 8 MB of Markdown.
// The pruning before the conversion keeps those figures in bounds.
const (
	// MaxMarkdown bounds the Markdown of one page (as estimated while
	// pruning, and cut after): the ceiling of maxBytes, so the plugin gets
	// no more than a raw fetch could give it, about 90 windows of 90,000
	// bytes.
	MaxMarkdown = MaxMaxBytes
	// maxNesting is how many of those elements may hold one another;
	// deeper ones are unwrapped, their content kept. Real pages nest lists
	// four or five deep and quoted mail about ten.
	maxNesting = 16
	// maxListStart bounds an <ol start> (its digits prefix every item);
	// a larger one is dropped.
	maxListStart = 1_000_000
	// maxSpan bounds a cell's colspan and rowspan: the table renderer makes
	// a cell for each spanned place (HTML itself stops at 1,000 and 65,534).
	maxSpan = 100
	// maxTableCells bounds the cells of all the page's tables, spanned and
	// filled-up places included (every row gets as many cells as the
	// widest); past it a table is rendered as rows of text.
	maxTableCells = 200_000
)

// rewrap are the elements whose renderer buffers and copies its content,
// with the width of what it adds to each line of it (a quote's "> ", a
// list item's indent, emphasis closed and reopened on every line).
var rewrap = map[atom.Atom]int{
	atom.Blockquote: 2, atom.Ul: 2, atom.Ol: 2,
	atom.B: 4, atom.Strong: 4, atom.I: 2, atom.Em: 2, atom.Del: 4, atom.S: 4, atom.Strike: 4,
	atom.A: 2, atom.Code: 2, atom.Var: 2, atom.Samp: 2, atom.Kbd: 2, atom.Tt: 2, atom.Pre: 0,
	atom.H1: 2, atom.H2: 2, atom.H3: 2, atom.H4: 2, atom.H5: 2, atom.H6: 2,
	atom.Table: 0, atom.Caption: 0,
}

// pruner prepares a parsed page for the converter, estimating as it goes
// the size of the Markdown to come, and cuts the page where the estimate
// passes MaxMarkdown.
type pruner struct {
	ctx        context.Context // the conversion's: once it ends, the rest is removed
	seen       int             // nodes pruned, for checking ctx now and then
	base       int             // the page URL's length, which every relative link gets
	size       int64           // Markdown estimated so far
	tableCells int             // cells of the tables kept as tables
	cut        bool            // the rest of the page was removed
}

// prune removes the dropped elements, and images whose source is inline
// data (which would put kilobytes of base64 in the text; such an image
// leaves its alt text); unwraps the rewrap elements nested past
// maxNesting; bounds list starts and table spans; and once the estimate
// passes MaxMarkdown removes everything after. depth counts the rewrap
// elements around n, prefix the width they add to each line.
func (p *pruner) prune(n *html.Node, depth, prefix int) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if p.seen++; p.seen%4096 == 0 && p.ctx.Err() != nil {
			p.cut = true
		}
		if p.cut {
			n.RemoveChild(c)
			c = next
			continue
		}
		width, wraps := rewrap[c.DataAtom]
		switch {
		case c.Type == html.CommentNode:
			n.RemoveChild(c)
		case c.Type == html.TextNode:
			p.add(len(c.Data) + punctuation(c.Data) + strings.Count(c.Data, "\n")*prefix)
		case c.Type != html.ElementNode:
		case dropped[c.DataAtom]:
			n.RemoveChild(c)
		case c.DataAtom == atom.Img && strings.HasPrefix(strings.TrimSpace(attr(c, "src")), "data:"):
			if alt := attr(c, "alt"); alt != "" {
				n.InsertBefore(&html.Node{Type: html.TextNode, Data: alt}, c)
				next = c.PrevSibling
			}
			n.RemoveChild(c)
		case wraps && depth >= maxNesting:
			if first := unwrap(c); first != nil {
				next = first
			}
		default:
			p.add(p.elementSize(c, prefix))
			if wraps {
				if c.DataAtom == atom.Ol {
					width = olWidth(c)
				}
				if c.DataAtom == atom.Table {
					p.table(c)
				}
				p.prune(c, depth+1, prefix+width)
			} else {
				p.prune(c, depth, prefix)
			}
		}
		c = next
	}
}

// add counts n bytes of Markdown to come, and cuts past MaxMarkdown.
func (p *pruner) add(n int) {
	p.size += int64(n)
	if p.size > MaxMarkdown {
		p.cut = true
	}
}

// elementSize estimates the Markdown an element adds besides its content:
// its marks and the two line starts of a block, with their prefix, and
// the links and text an image or a link spells out (URLs escaped, made
// absolute).
func (p *pruner) elementSize(n *html.Node, prefix int) int {
	size := 8 + 2*prefix
	switch n.DataAtom {
	case atom.A, atom.Img:
		link := attr(n, "href") + attr(n, "src")
		if !strings.Contains(link, ":") {
			size += p.base // a relative link is made absolute
		}
		size += 3*len(link) + 2*(len(attr(n, "alt"))+len(attr(n, "title")))
	}
	return size
}

// punctuation counts the ASCII punctuation of s, which Markdown may
// escape with a backslash.
func punctuation(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c > ' ' && c < 0x7f && !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			n++
		}
	}
	return n
}

// unwrap puts an element's children in its place and returns the first.
func unwrap(n *html.Node) *html.Node {
	first := n.FirstChild
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		n.RemoveChild(c)
		n.Parent.InsertBefore(c, n)
		c = next
	}
	n.Parent.RemoveChild(n)
	return first
}

// olWidth is the width of an ordered list's item numbers ("12. "), its
// start bounded by maxListStart first.
func olWidth(n *html.Node) int {
	start := 1
	if s := attr(n, "start"); s != "" {
		v, err := strconv.Atoi(s)
		switch {
		case err != nil:
		case v > maxListStart || v < -maxListStart:
			setAttr(n, "start", "1")
		default:
			start = v
		}
	}
	items := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		items++
	}
	return len(strconv.Itoa(max(start+items, -start))) + 3
}

// table bounds the spans of a table's cells to maxSpan, and counts the
// places its grid will have against maxTableCells: past the page's
// budget the table is marked role=presentation, which the table renderer
// leaves to the rows' plain rendering.
func (p *pruner) table(t *html.Node) {
	rows, widest, shift, tallest, area := 0, 0, 0, 1, 0
	var walk func(n *html.Node, row *int)
	walk = func(n *html.Node, row *int) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Tr:
				rows++
				width := 0
				walk(c, &width)
				widest = max(widest, width)
				continue
			case atom.Td, atom.Th:
				cs, rs := span(c, "colspan"), span(c, "rowspan")
				if row != nil {
					*row += cs
				}
				if rs > 1 {
					shift += cs
				}
				tallest = max(tallest, rs)
				area += cs * rs
			}
			walk(c, row)
		}
	}
	walk(t, nil)
	cells := max(area, (rows+tallest)*(widest+shift))
	if p.tableCells+cells > maxTableCells {
		setAttr(t, "role", "presentation")
		return
	}
	p.tableCells += cells
	p.add(3 * cells)
}

// span is a cell's colspan or rowspan as the table renderer reads it,
// bounded to maxSpan (and the attribute with it).
func span(cell *html.Node, key string) int {
	v, err := strconv.Atoi(attr(cell, key))
	if err != nil || v < 1 {
		return 1
	}
	if v > maxSpan {
		setAttr(cell, key, strconv.Itoa(maxSpan))
		return maxSpan
	}
	return v
}
