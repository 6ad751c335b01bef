package fetch

import (
	"bytes"
	"strings"
	"sync"

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
// and strikethrough; it is safe for concurrent use.
var markdownConverter = sync.OnceValue(func() *converter.Converter {
	return converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(),
		strikethrough.NewStrikethroughPlugin(),
	))
})

// ToMarkdown converts an HTML page (UTF-8) to Markdown: the dropped
// elements and inline data: images removed, relative links made absolute
// against pageURL. It returns the page's <title> too. A page the HTML
// parser refuses (nesting deeper than 512 elements) is an error.
func ToMarkdown(page []byte, pageURL string) (md []byte, title string, err error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, "", err
	}
	title = findTitle(doc)
	prune(doc)
	md, err = markdownConverter().ConvertNode(doc, converter.WithDomain(pageURL))
	if err != nil {
		return nil, title, err
	}
	return md, title, nil
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
		return clip(strings.Join(strings.Fields(b.String()), " "), 300)
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

// prune removes the dropped elements, and images whose source is inline
// data (which would put kilobytes of base64 in the text); such an image
// leaves its alt text.
func prune(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		switch {
		case c.Type == html.CommentNode:
			n.RemoveChild(c)
		case c.Type != html.ElementNode:
		case dropped[c.DataAtom]:
			n.RemoveChild(c)
		case c.DataAtom == atom.Img && strings.HasPrefix(strings.TrimSpace(attr(c, "src")), "data:"):
			if alt := attr(c, "alt"); alt != "" {
				n.InsertBefore(&html.Node{Type: html.TextNode, Data: alt}, c)
			}
			n.RemoveChild(c)
		default:
			prune(c)
		}
		c = next
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
