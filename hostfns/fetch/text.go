package fetch

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// lines are the elements that begin a line of text; blocks begin and end
// one, so that a blank line separates two blocks.
var lines = map[atom.Atom]bool{atom.Br: true, atom.Tr: true, atom.Dt: true, atom.Dd: true}

var blocks = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Hr: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Pre: true, atom.Blockquote: true, atom.Table: true, atom.Ul: true, atom.Ol: true,
	atom.Section: true, atom.Article: true, atom.Header: true, atom.Footer: true, atom.Nav: true,
	atom.Aside: true, atom.Main: true, atom.Figure: true, atom.Figcaption: true, atom.Details: true,
	atom.Summary: true, atom.Address: true, atom.Form: true, atom.Fieldset: true, atom.Dl: true,
	atom.Caption: true, atom.Body: true, atom.Html: true,
}

// void are the dropped elements that have no end tag: <input> holds no
// text, and the text after it is the page's.
var void = map[atom.Atom]bool{atom.Input: true, atom.Embed: true}

// StripTags returns an HTML page's text (UTF-8 in and out): tags removed,
// the content of the dropped elements (script, style, svg …) left out,
// entities decoded, a line per block element, white space collapsed except
// inside <pre>, table cells separated by tabs. It returns the <title>
// too. It reads the page as a stream of tokens, so no nesting is too deep.
func StripTags(page []byte) (text []byte, title string) {
	z := html.NewTokenizer(bytes.NewReader(page))
	var out bytes.Buffer
	// skip are the dropped elements open around the current token, open
	// how many of each: an end tag of one that is not open is passed over
	// without a look through skip, which would make the pass quadratic.
	var skip []atom.Atom
	open := map[atom.Atom]int{}
	pre := 0
	var titleText strings.Builder
	inTitle := false
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return tidy(out.Bytes()), titleLine(titleText.String())
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch {
			case a == atom.Title:
				inTitle = tt == html.StartTagToken && titleText.Len() == 0
			case dropped[a] && a != atom.Head:
				switch {
				case tt == html.StartTagToken && !void[a]:
					skip = append(skip, a)
					open[a]++
				case tt == html.EndTagToken && open[a] > 0:
					i := lastIndex(skip, a)
					for _, b := range skip[i:] {
						open[b]--
					}
					skip = skip[:i]
				}
			case len(skip) > 0:
			case a == atom.Pre:
				if tt == html.StartTagToken {
					pre++
				} else if tt == html.EndTagToken && pre > 0 {
					pre--
				}
				out.WriteByte('\n')
			case a == atom.Td || a == atom.Th:
				if b := out.Bytes(); tt != html.EndTagToken && len(b) > 0 && b[len(b)-1] != '\n' {
					out.WriteByte('\t')
				}
			case a == atom.Li:
				if tt == html.StartTagToken {
					out.WriteString("\n- ")
				}
			case lines[a]:
				if tt != html.EndTagToken {
					out.WriteByte('\n')
				}
			case blocks[a]:
				out.WriteByte('\n')
			}
		case html.TextToken:
			switch {
			case inTitle:
				titleText.Write(z.Text())
			case len(skip) > 0:
			case pre > 0:
				out.Write(z.Text())
			default:
				collapse(&out, z.Text())
			}
		}
	}
}

// collapse appends text with each run of white space made one space, and
// none at the start of a line.
func collapse(out *bytes.Buffer, text []byte) {
	for len(text) > 0 {
		i := bytes.IndexFunc(text, func(r rune) bool { return !isSpace(r) })
		if i != 0 {
			if b := out.Bytes(); len(b) > 0 && !isSpace(rune(b[len(b)-1])) {
				out.WriteByte(' ')
			}
			if i < 0 {
				return
			}
			text = text[i:]
		}
		j := bytes.IndexFunc(text, isSpace)
		if j < 0 {
			j = len(text)
		}
		out.Write(text[:j])
		text = text[j:]
	}
}

func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f'
}

// tidy trims each line's trailing blanks and keeps at most one empty line
// in a row.
func tidy(b []byte) []byte {
	var out bytes.Buffer
	blank := 0
	for _, line := range bytes.Split(b, []byte("\n")) {
		line = bytes.TrimRight(line, " \t\r")
		if len(bytes.TrimSpace(line)) == 0 {
			blank++
			continue
		}
		if out.Len() > 0 {
			out.WriteString(strings.Repeat("\n", min(blank, 1)+1))
		}
		blank = 0
		out.Write(line)
	}
	if out.Len() > 0 {
		out.WriteByte('\n')
	}
	return out.Bytes()
}

func lastIndex(s []atom.Atom, a atom.Atom) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == a {
			return i
		}
	}
	return -1
}
