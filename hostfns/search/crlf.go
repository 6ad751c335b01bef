package search

import (
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
)

// crlf reports whether req's pattern is matched with a CRLF line end taken
// whole as the line end (rg's --crlf): a pattern that asserts a line's end
// ($) and names no carriage return. read_file and the edits show a CRLF
// file's lines without their \r, and the lines found are shown so, but $
// matched only before \n: foo$ found nothing in a CRLF file, and \s+$
// every line of it. A pattern that names \r keeps the byte-wise match (rg
// refuses \r in --crlf mode), so \r$ still finds CRLF line ends.
func crlf(req *abi.SearchRequest) bool {
	if req.Literal || !strings.Contains(req.Pattern, "$") {
		return false
	}
	t, err := syntax.Parse(req.Pattern, syntax.Perl&^syntax.OneLine)
	if err != nil {
		return false
	}
	return holds(t, func(re *syntax.Regexp) bool { return re.Op == syntax.OpEndLine || re.Op == syntax.OpEndText }) &&
		!holds(t, func(re *syntax.Regexp) bool {
			return re.Op == syntax.OpLiteral && slices.Contains(re.Rune, '\r')
		})
}

// holds reports whether re or any part of it is one that is.
func holds(re *syntax.Regexp, is func(*syntax.Regexp) bool) bool {
	return is(re) || slices.ContainsFunc(re.Sub, func(sub *syntax.Regexp) bool { return holds(sub, is) })
}
