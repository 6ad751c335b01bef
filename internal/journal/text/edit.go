package text

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
)

// bom is the UTF-8 byte order mark.
const bom = "\xef\xbb\xbf"

// Style is how a file spells what its text does not show: a BOM, CRLF
// line ends, UTF-16. Edits match against the text without them and write
// the result back with them.
type Style struct {
	BOM   bool   // the content starts with a UTF-8 byte order mark
	CRLF  bool   // every line end is CRLF
	UTF16 string // UTF16LE or UTF16BE: the content is UTF-16, BOM first
}

// SplitStyle returns content's text (UTF-8, LF line ends, no BOM) and its
// style. A file with mixed line ends is left as it is (crlf false), and
// UTF-16 that would not encode back to the same bytes is left as bytes.
func SplitStyle(content []byte) (string, Style) {
	var st Style
	var s string
	if u, enc, ok := DecodeUTF16(content); ok {
		s, st.UTF16 = u, enc
	} else {
		if bytes.HasPrefix(content, []byte(bom)) {
			st.BOM = true
			content = content[len(bom):]
		}
		s = string(content)
	}
	if crlf := strings.Count(s, "\r\n"); crlf > 0 && crlf == strings.Count(s, "\n") {
		st.CRLF = true
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	return s, st
}

// Join turns text back into content in style st.
func (st Style) Join(s string) []byte {
	if st.CRLF {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	if st.UTF16 != "" {
		return EncodeUTF16(s, st.UTF16)
	}
	if st.BOM {
		s = bom + s
	}
	return []byte(s)
}

// Edit replaces old by new in content, exactly, and returns the new
// content and the number of replacements. old must occur once, unless all.
func Edit(display string, content []byte, old, new string, all bool) ([]byte, int, *abi.Error) {
	if old == "" {
		return nil, 0, abi.Errorf(abi.InvalidArgument, "oldString is empty; to replace the whole of %s use write_file, otherwise pass the exact text to replace", abi.Quote(display))
	}
	text, st := SplitStyle(content)
	differed := old != new
	// The arguments take the file's line ends: in a CRLF file, or in one
	// without any CRLF, a CRLF of oldString or newString is a "\n" (a
	// newString's CRLF in an LF file once mixed line ends into it).
	if st.CRLF || !strings.Contains(text, "\r\n") {
		old = strings.ReplaceAll(old, "\r\n", "\n")
		new = strings.ReplaceAll(new, "\r\n", "\n")
	}
	if old == new && differed {
		ends := "LF"
		if st.CRLF {
			ends = "CRLF"
		}
		return nil, 0, abi.Errorf(abi.InvalidArgument, "oldString and newString differ only in their line ends (CRLF against LF), and an edit writes the line ends of %s (%s) whatever its arguments use, so nothing would change. "+
			"Edits never convert a file's line ends: to do that, run a command (dos2unix or unix2dos, or sed -i 's/\\r$//' on it)", abi.Quote(display), ends)
	}
	if old == new {
		return nil, 0, abi.Errorf(abi.InvalidArgument, "oldString and newString are the same, so the edit would change nothing; pass the new text as newString")
	}
	n := strings.Count(text, old)
	switch {
	case n == 0:
		return nil, 0, noMatch(display, text, old)
	case n > 1 && !all:
		return nil, 0, abi.Errorf(abi.AmbiguousEdit, "oldString occurs %d times in %s (starting at lines %s); add surrounding lines to oldString so that it occurs once, or set replaceAll to change every occurrence",
			n, abi.Quote(display), occurrenceLines(text, old, 20))
	}
	if all {
		text = strings.ReplaceAll(text, old, new)
	} else {
		text = strings.Replace(text, old, new, 1)
	}
	return st.Join(text), n, nil
}

// occurrenceLines lists the 1-based lines where old starts in text.
func occurrenceLines(text, old string, max int) string {
	var lines []string
	line, at := 1, 0
	for len(lines) < max {
		i := strings.Index(text[at:], old)
		if i < 0 {
			break
		}
		line += strings.Count(text[at:at+i], "\n")
		lines = append(lines, fmt.Sprint(line))
		line += strings.Count(old, "\n")
		at += i + len(old)
		if len(old) == 0 {
			break
		}
	}
	s := strings.Join(lines, ", ")
	if len(lines) == max {
		s += ", …"
	}
	return s
}

// quote quotes a display path for a message.
