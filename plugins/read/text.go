package read

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// Caps that keep one result under what clients accept (about 25,000
// tokens): a read stops at defaultLines lines or maxBytes bytes, whichever
// comes first, and says how to read on.
const (
	defaultLines = 2000
	maxBytes     = 100 << 10
)

// FileText is one file's read, as read_file and read_files return it.
type FileText struct {
	Path       string `json:"path" desc:"The file's path, relative to the first root."`
	Content    string `json:"content" desc:"The lines read, without line numbers."`
	FirstLine  int    `json:"firstLine" desc:"Number of the first line in content (1-based)."`
	LineCount  int    `json:"lineCount" desc:"How many lines content holds."`
	TotalLines int    `json:"totalLines" desc:"How many lines the file has."`
	Truncated  bool   `json:"truncated" desc:"True when the read stopped at the size cap; read on with offset nextOffset."`
	NextOffset int    `json:"nextOffset,omitempty" desc:"The offset to pass to read the lines after these, when there are any."`
	Size       int64  `json:"size" desc:"The file's size in bytes."`
	Binary     bool   `json:"binary,omitempty" desc:"True for a binary file: content is empty and fileType says what it looks like."`
	FileType   string `json:"fileType,omitempty" desc:"For a binary file, its format guessed from its first bytes."`
	MimeType   string `json:"mimeType,omitempty" desc:"For a binary file, the MIME type of that format."`

	lineCut bool  // the one line shown is longer than the cap and was cut
	byteCap int64 // the byte cap this read had
}

// readSpan asks the host for lines [offset, offset+limit) of path, within
// byteCap bytes. limit 0 means up to defaultLines.
func readSpan(path string, offset, limit int, byteCap int64) (*FileText, error) {
	first := max(offset, 1)
	lines := limit
	if lines == 0 {
		lines = defaultLines
	}
	res, body, err := juju.ReadFile(abi.ReadRequest{Path: path, Line: first, Lines: lines, MaxBytes: byteCap})
	if err != nil {
		return nil, err
	}
	ft := &FileText{Path: res.Path, Size: res.Size, FirstLine: first, TotalLines: res.TotalLines, byteCap: byteCap}
	if res.Binary {
		return describeBinary(ft)
	}
	content, count, cut := completeLines(body, res)
	if count == 0 && first > 1 && first > res.TotalLines {
		return nil, juju.Errorf(abi.InvalidArgument,
			"%s has %s, so offset %d is past its end; call read_file again with an offset from 1 to %d",
			res.Path, plural(res.TotalLines, "line", "lines"), first, max(res.TotalLines, 1))
	}
	ft.Content, ft.LineCount, ft.lineCut = content, count, cut
	ft.TotalLines = max(res.TotalLines, first+count-1)
	last := first + count - 1
	switch {
	case cut:
		ft.Truncated = true
		if last < ft.TotalLines {
			ft.NextOffset = last + 1
		}
	case last < ft.TotalLines:
		ft.NextOffset = last + 1
		// Stopping short of what was asked is a truncation; stopping at
		// the limit the caller gave is not.
		ft.Truncated = limit == 0 || count < limit
	}
	return ft, nil
}

// completeLines returns the body as text with its number of lines. In line
// mode the host sends and counts whole lines, also when it stops at the
// byte cap, except for a first line longer than the cap: that one comes
// cut, and cutLine says so. (Scanning the text here would cost: inside
// wasm, every byte looked at counts.)
func completeLines(body []byte, res *abi.ReadResult) (content string, count int, cutLine bool) {
	s := string(body)
	if res.Truncated && s != "" && !strings.HasSuffix(s, "\n") {
		return s, 1, true
	}
	return s, res.LineCount, false
}

// describeBinary fills ft for a binary file from its first bytes.
func describeBinary(ft *FileText) (*FileText, error) {
	ft.Binary, ft.FirstLine, ft.TotalLines = true, 0, 0
	_, head, err := juju.ReadFile(abi.ReadRequest{Path: ft.Path, Length: sniffLen, Binary: true})
	if err != nil {
		return nil, err
	}
	ft.FileType, ft.MimeType = sniff(head)
	return ft, nil
}

// render is the text the model reads for ft: the lines (numbered like
// cat -n when asked) and, when the file goes on, how to read the rest.
func render(ft *FileText, numbered bool) string {
	if ft.Binary {
		hint := "its bytes are not shown"
		if strings.HasPrefix(ft.MimeType, "image/") {
			hint += "; use read_image to see it"
		}
		return fmt.Sprintf("%s is a binary file (%s, %s, %s); %s.", ft.Path, ft.FileType, ft.MimeType, size(ft.Size), hint)
	}
	if ft.TotalLines == 0 && ft.Content == "" {
		return fmt.Sprintf("(%s is empty)", ft.Path)
	}
	notice := notice(ft)
	if !numbered && notice == "" && strings.HasSuffix(ft.Content, "\n") {
		// The text is the content itself: the same string, which the
		// result then sends to the host once.
		return ft.Content
	}
	var b strings.Builder
	b.Grow(len(ft.Content) + ft.LineCount*8 + 200)
	if numbered {
		n := ft.FirstLine
		for line := range strings.Lines(ft.Content) {
			b.WriteString(pad(n))
			b.WriteByte('\t')
			b.WriteString(line)
			n++
		}
	} else {
		b.WriteString(ft.Content)
	}
	if ft.Content != "" && !strings.HasSuffix(ft.Content, "\n") {
		b.WriteByte('\n')
	}
	if notice != "" {
		b.WriteString("\n" + notice + "\n")
	}
	return b.String()
}

// notice tells the model what part of the file it got and how to go on.
func notice(ft *FileText) string {
	if ft.lineCut {
		n := fmt.Sprintf("[Truncated: line %d is longer than %s and only its start is shown; search_code finds text inside it.",
			ft.FirstLine, size(ft.byteCap))
		if ft.NextOffset > 0 {
			n += fmt.Sprintf(" Call read_file with offset %d for the lines after it.", ft.NextOffset)
		}
		return n + "]"
	}
	if ft.NextOffset == 0 {
		return ""
	}
	what := fmt.Sprintf("lines %d-%d of %d", ft.FirstLine, ft.NextOffset-1, ft.TotalLines)
	if ft.Truncated {
		return fmt.Sprintf("[Truncated: showing %s (a read stops at %d lines or %s). Call read_file with path %q and offset %d to read the rest.]",
			what, defaultLines, size(ft.byteCap), ft.Path, ft.NextOffset)
	}
	return fmt.Sprintf("[Showing %s. Call read_file with offset %d to read on.]", what, ft.NextOffset)
}

// pad right-aligns a line number in six columns, as cat -n does.
func pad(n int) string {
	s := strconv.Itoa(n)
	if len(s) < 6 {
		s = strings.Repeat(" ", 6-len(s)) + s
	}
	return s
}
