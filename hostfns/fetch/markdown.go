package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// dropped are the elements whose content is never text for a reader:
// code, styling, media and embedded documents. (html-to-markdown's base
// plugin removes script, style, head, iframe, noscript, input and
// textarea itself; removing them here too keeps the text format alike.)
var dropped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Svg: true, atom.Math: true, atom.Canvas: true, atom.Iframe: true, atom.Frameset: true,
	atom.Object: true, atom.Embed: true, atom.Audio: true, atom.Video: true,
	atom.Head: true, atom.Title: true, atom.Select: true, atom.Button: true,
	atom.Input: true, atom.Textarea: true, atom.Dialog: true,
}

// markdownConverter is html-to-markdown with CommonMark, GitHub's tables
// and strikethrough; it is safe for concurrent use. Table cells get one
// space of padding, not the column's width: aligned padding costs the
// widest cell of a column on every row. A first renderer renders nothing
// once the conversion's context has ended, so a conversion given up on
// stops at the next element.
var markdownConverter = sync.OnceValue(func() *converter.Converter {
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(table.WithCellPaddingBehavior(table.CellPaddingBehaviorMinimal)),
		strikethrough.NewStrikethroughPlugin(),
	))
	conv.Register.Renderer(func(ctx converter.Context, _ converter.Writer, _ *html.Node) converter.RenderStatus {
		if ctx.Err() != nil {
			return converter.RenderSuccess
		}
		return converter.RenderTryNext
	}, converter.PriorityEarly-50)
	return conv
})

// ToMarkdown converts an HTML page (UTF-8) to Markdown: the dropped
// elements and inline data: images removed, relative links made absolute
// against pageURL. It returns the page's <title> too. Only the start of a
// page whose DOM would pass maxNodes is parsed (domPrefix), and the page
// is cut where its Markdown would pass MaxMarkdown; cut is then juju's
// note saying where the Markdown stops. A page the HTML parser refuses
// (nesting deeper than 512 elements) is an error, and so is ctx ending
// before the conversion does: the parse, the pruning and the rendering
// each stop soon after it ends.
func ToMarkdown(ctx context.Context, page []byte, pageURL string) (md []byte, title, cut string, err error) {
	head := page
	if len(head) > maxDOMBytes {
		n := maxDOMBytes
		for n > 0 && !utf8.RuneStart(page[n]) {
			n--
		}
		head = page[:n]
	}
	end, _ := domPrefix(head, maxNodes)
	doc, err := html.Parse(ctxReader{ctx: ctx, r: bytes.NewReader(page[:end])})
	if ctx.Err() != nil {
		return nil, "", "", errLate
	}
	if err != nil {
		return nil, "", "", err
	}
	title = findTitle(doc)
	p := &pruner{ctx: ctx, base: len(pageURL)}
	p.prune(doc, 0, 0)
	if ctx.Err() != nil {
		return nil, title, "", errLate
	}
	md, err = markdownConverter().ConvertNode(doc, converter.WithDomain(pageURL), converter.WithContext(ctx))
	if err == nil && ctx.Err() != nil {
		err = errLate
	}
	if err != nil {
		return nil, title, "", err
	}
	if len(md) > MaxMarkdown {
		md, p.cut = cutAtLine(md, MaxMarkdown), true
	}
	switch {
	case p.cut:
		cut = fmt.Sprintf("the page's Markdown was cut at about %d MiB", MaxMarkdown>>20)
	case end < len(page):
		cut = fmt.Sprintf("the page is larger than juju converts to Markdown (%d MiB of HTML or about %d elements): its Markdown stops %d%% into the page", maxDOMBytes>>20, maxNodes, int64(end)*100/int64(len(page)))
	}
	return md, title, cut, nil
}

// errLate is the conversion's error when ctx ended first.
var errLate = errors.New("it took longer than the time left")

// cutAtLine cuts b to at most n bytes, after a line when one ends in the
// last quarter.
func cutAtLine(b []byte, n int) []byte {
	b = b[:n]
	if i := bytes.LastIndexByte(b[n*3/4:], '\n'); i >= 0 {
		return b[:n*3/4+i+1]
	}
	return bytes.ToValidUTF8(b, nil)
}

// titleLine is a page's title as the result names it: one line, at most
// 300 bytes, without control or format characters. The title goes out in
// the structured content as it is, outside the fence the text gets, so an
// escape, a bidi override or an invisible tag character a page puts there
// would reach a client's screen or the model unseen.
func titleLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && !unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
	return clip(strings.Join(strings.Fields(s), " "), 300)
}

// findTitle returns the text of the document's first <title>, on one line.
func findTitle(n *html.Node) string {
	if n.Type == html.ElementNode && n.DataAtom == atom.Title {
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				b.WriteString(c.Data)
			}
		}
		return titleLine(b.String())
	}
	if n.Type == html.ElementNode && n.DataAtom == atom.Body {
		return ""
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if t := findTitle(c); t != "" {
			return t
		}
	}
	return ""
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func setAttr(n *html.Node, key, val string) {
	for i, a := range n.Attr {
		if a.Key == key {
			n.Attr[i].Val = val
			return
		}
	}
	n.Attr = append(n.Attr, html.Attribute{Key: key, Val: val})
}
