package read

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// Caps that keep one result under what clients accept (about 25,000
// tokens; SPEC §4: under 100,000 bytes of text): a read stops at
// defaultLines lines or maxText bytes of text, line numbers included,
// whichever comes first, and says how to read on. The structured content
// carries the read's shape, never the text again.
const (
	defaultLines = 2000
	maxText      = 90_000
	numberWidth  = 7 // "     1\t": what numbered adds to a line, as cat -n does up to 999,999
)

// FileText is one file's read, as read_file and read_files return it: the
// text goes to the result's text, the rest is its structured content.
type FileText struct {
	Path           string `json:"path" desc:"The file's path, relative to the first root."`
	FirstLine      int    `json:"firstLine" desc:"Number of the first line shown (1-based); 0 for a read by bytes."`
	LineCount      int    `json:"lineCount" desc:"How many lines the text shows (a line cut at the size cap counts)."`
	TotalLines     int    `json:"totalLines" desc:"How many lines the file has (0 for a read by bytes, which does not count them)."`
	Truncated      bool   `json:"truncated" desc:"True when the read stopped at the size or line cap: read on with offset nextOffset, or byteOffset nextByteOffset."`
	NextOffset     int    `json:"nextOffset,omitempty" desc:"The offset to pass to read the lines after these, when there are any."`
	ByteOffset     int64  `json:"byteOffset,omitempty" desc:"For a read by bytes: the first byte shown."`
	NextByteOffset int64  `json:"nextByteOffset,omitempty" desc:"When the text stops inside a line (one too long to show whole, or a read by bytes): the byteOffset to pass to read on from there."`
	Bytes          int    `json:"bytes" desc:"Bytes of the file's text shown."`
	Size           int64  `json:"size" desc:"The file's size in bytes."`
	Binary         bool   `json:"binary,omitempty" desc:"True for a binary file: no text is shown and fileType says what it looks like."`
	FileType       string `json:"fileType,omitempty" desc:"For a binary file, its format guessed from its first bytes."`
	MimeType       string `json:"mimeType,omitempty" desc:"For a binary file, the MIME type of that format."`
	Encoding       string `json:"encoding,omitempty" desc:"utf-16le or utf-16be for a UTF-16 text file, shown converted to UTF-8: sizes and byte offsets count the converted text; edits take that text and keep the file UTF-16."`

	content string // the text read, without line numbers
	lineCut bool   // the one line shown is longer than the cap and was cut
	byteCap int64  // the byte cap this read had
	bom     bool   // the file starts with a UTF-8 byte-order mark, left out of content
}

// utf8BOM is the UTF-8 byte-order mark. The text shown leaves it out, as
// search_code's lines and the matching of edit_file and apply_patch do:
// shown, it was the first character of line 1, and line 1 copied as read
// then matched nothing.
const utf8BOM = "\xef\xbb\xbf"

// span is what to read of one file: lines from offset (1-based; 0 means
// 1), limit of them (0: up to defaultLines), or, with byBytes, bytes from
// byteOffset; in either case at most byteCap bytes of text, line numbers
// included when numbered.
type span struct {
	offset, limit int
	byBytes       bool
	byteOffset    int64
	byteCap       int64
	numbered      bool
}

// readSpan reads sp of path through the host.
func readSpan(path string, sp span) (*FileText, error) {
	if sp.byBytes {
		return readBytes(path, sp)
	}
	res, body, err := juju.ReadFile(lineRequest(path, sp))
	if err != nil {
		return nil, err
	}
	ft, err := shapeLines(res, body, sp)
	if err == nil && ft.lineCut && ft.content == "" {
		// A maxBytes below the size of the line's first character left
		// nothing to show, and reading on by bytes would have started
		// where this read did: show that character whole, as a read by
		// bytes does.
		first, err := readBytes(path, span{byBytes: true, byteOffset: res.StartOffset, byteCap: 1})
		if err != nil {
			return nil, err
		}
		ft.content, ft.Bytes, ft.NextByteOffset = first.content, first.Bytes, first.ByteOffset+int64(first.Bytes)
	}
	return ft, err
}

// lineRequest is the host read of sp's lines of path.
func lineRequest(path string, sp span) abi.ReadRequest {
	lines := sp.limit
	if lines == 0 {
		lines = defaultLines
	}
	return abi.ReadRequest{Path: path, Line: max(sp.offset, 1), Lines: lines, MaxBytes: sp.byteCap}
}

// shapeLines makes the FileText of sp from the host's answer to its
// lineRequest.
func shapeLines(res *abi.ReadResult, body []byte, sp span) (*FileText, error) {
	first := max(sp.offset, 1)
	ft := &FileText{Path: res.Path, Size: res.Size, FirstLine: first, TotalLines: res.TotalLines, Encoding: res.Encoding, byteCap: sp.byteCap}
	if res.Binary {
		return describeBinary(ft)
	}
	content, count, cut := completeLines(body, res)
	if count == 0 && first > 1 && res.TotalLines == 0 {
		return nil, juju.Errorf(abi.InvalidArgument, "%s is empty, so it has no line %d; there is nothing more to read", juju.PathText(res.Path), first)
	}
	if count == 0 && first > 1 && first > res.TotalLines {
		return nil, juju.Errorf(abi.InvalidArgument,
			"%s has %s, so offset %d is past its end; call read_file again with an offset from 1 to %d",
			res.Path, plural(res.TotalLines, "line", "lines"), first, max(res.TotalLines, 1))
	}
	if cut {
		content = trimRune(content)
		ft.NextByteOffset = res.StartOffset + int64(len(content))
	}
	if res.StartOffset == 0 && res.Encoding == "" && strings.HasPrefix(content, utf8BOM) {
		content, ft.bom = content[len(utf8BOM):], true
	}
	ft.content, ft.LineCount, ft.lineCut = content, count, cut
	if sp.numbered && !cut {
		fitNumbered(ft)
	}
	ft.Bytes = len(ft.content)
	ft.TotalLines = max(res.TotalLines, first+ft.LineCount-1)
	last := first + ft.LineCount - 1
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
		ft.Truncated = sp.limit == 0 || ft.LineCount < sp.limit
	}
	return ft, nil
}

// readBytes reads from sp.byteOffset, whatever lines it meets: the way on
// inside a line too long to show whole. The text starts and stops on
// whole characters (cutBytes), for which the host is asked for UTFMax-1
// bytes before the offset and 2*(UTFMax-1) more than the cap after it:
// the character the offset may fall in, and the first character, longer
// by itself than the cap, which is shown whole. ByteOffset+Bytes is
// NextByteOffset, so reading on loses no byte and repeats none.
func readBytes(path string, sp span) (*FileText, error) {
	const slack = utf8.UTFMax - 1
	from := max(0, sp.byteOffset-slack)
	length := sp.byteOffset - from + sp.byteCap + 2*slack
	res, body, err := juju.ReadFile(abi.ReadRequest{Path: path, Offset: from, Length: length, MaxBytes: length})
	if err != nil {
		return nil, err
	}
	ft := &FileText{Path: res.Path, Size: res.Size, Encoding: res.Encoding, byteCap: sp.byteCap}
	if res.Binary {
		return describeBinary(ft)
	}
	if res.Size == 0 {
		return ft, nil // shown as the empty file it is, as a read by lines
	}
	if sp.byteOffset >= res.Size {
		return nil, juju.Errorf(abi.InvalidArgument, "%s has %s, so byteOffset %d is past its end; pass a byteOffset below %d",
			juju.PathText(res.Path), exactSize(res.Size), sp.byteOffset, res.Size)
	}
	start, text := cutBytes(body, from, sp.byteOffset, res.Size, sp.byteCap)
	if start == 0 && len(text) > len(utf8BOM) && string(text[:len(utf8BOM)]) == utf8BOM {
		// Left out and said, as a read by lines does: the edits keep it.
		start, text, ft.bom = int64(len(utf8BOM)), text[len(utf8BOM):], true
	}
	if len(text) == 0 {
		return nil, juju.Errorf(abi.InvalidArgument, "%s has %s, and byteOffset %d is inside its last character, so nothing follows it: the file is read to its end",
			juju.PathText(res.Path), exactSize(res.Size), sp.byteOffset)
	}
	ft.content = string(text)
	ft.ByteOffset, ft.Bytes = start, len(ft.content)
	if end := start + int64(len(ft.content)); end < res.Size {
		ft.Truncated, ft.NextByteOffset = true, end
	}
	return ft, nil
}

// cutBytes picks the text a read by bytes from offset shows, out of body,
// the bytes of a file of size bytes from from (up to UTFMax-1 bytes before
// offset) on, up to byteCap and 2*(UTFMax-1) bytes after offset. When offset
// falls inside a character (a whole UTF-8 sequence that begins before it)
// the text starts after that character, else at offset itself, a stray
// byte of invalid text included, so that reading on from where a read
// stopped skips nothing. It ends at the last whole character within
// byteCap bytes of its start, or after the first character when that one
// alone is longer (so that reading on always moves), or at the file's end.
// It is empty only when offset is inside the file's last character.
func cutBytes(body []byte, from, offset, size, byteCap int64) (start int64, text []byte) {
	start = offset
	for i := int64(0); i < offset-from && i < int64(len(body)); i++ {
		if r, n := utf8.DecodeRune(body[i:]); utf8.RuneStart(body[i]) && (r != utf8.RuneError || n > 1) && from+i+int64(n) > offset {
			start = from + i + int64(n)
			break
		}
	}
	if start-from >= int64(len(body)) {
		return start, nil
	}
	body = body[start-from:]
	text = body[:min(int64(len(body)), byteCap)]
	if start+int64(len(text)) < size { // stopped by the cap, not by the file's end
		tail := string(text[max(0, len(text)-utf8.UTFMax):]) // all trimRune looks at
		text = text[:len(text)-len(tail)+len(trimRune(tail))]
		if len(text) == 0 {
			_, n := utf8.DecodeRune(body)
			text = body[:n]
		}
	}
	return start, text
}

// completeLines returns the body as text with its number of lines. In line
// mode the host sends and counts whole lines, also when it stops at the
// byte cap, except for a first line longer than the cap: that one comes
// cut, and cutLine says so. (Scanning the text here would cost: inside
// wasm, every byte looked at counts.) The text is the body itself, not a
// copy: body is the host's answer, received into a buffer of its own
// that nothing writes to again (a copy was a fifth of what read_files of
// ten small files allocated inside wasm, and the guest's collector runs
// in proportion to what is allocated).
func completeLines(body []byte, res *abi.ReadResult) (content string, count int, cutLine bool) {
	s := unsafe.String(unsafe.SliceData(body), len(body))
	if res.Truncated && s != "" && !strings.HasSuffix(s, "\n") {
		return s, 1, true
	}
	return s, res.LineCount, false
}

// trimRune drops a character cut in two at the end of s.
func trimRune(s string) string {
	for i := 1; i <= utf8.UTFMax && i <= len(s); i++ {
		if utf8.RuneStart(s[len(s)-i]) {
			if !utf8.FullRuneInString(s[len(s)-i:]) {
				return s[:len(s)-i]
			}
			break
		}
	}
	return s
}

// fitNumbered drops the last lines of a numbered read until the text,
// numbers included, fits the byte cap (numbers add numberWidth bytes a
// line, so short lines can more than double the text).
func fitNumbered(ft *FileText) {
	if int64(len(ft.content)+ft.LineCount*numberWidth) <= ft.byteCap {
		return
	}
	n, size := 0, int64(0)
	for line := range strings.Lines(ft.content) {
		if size+int64(len(line)+numberWidth) > ft.byteCap {
			break
		}
		size += int64(len(line) + numberWidth)
		n++
	}
	if n == 0 { // one line, within the cap but for its number: keep it
		return
	}
	ft.content, ft.LineCount = ft.content[:size-int64(n*numberWidth)], n
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
	if ft.Binary && (ft.MimeType == utf16LE || ft.MimeType == utf16BE) {
		return fmt.Sprintf("%s is %s, %s, too large for read_file to convert (it converts UTF-16 files up to 16 MiB). search_code searches it; to read or edit it, convert it with a command (iconv -f UTF-16 -t UTF-8).",
			juju.PathText(ft.Path), ft.FileType, size(ft.Size))
	}
	if ft.Binary {
		hint := "its bytes are not shown"
		if strings.HasPrefix(ft.MimeType, "image/") {
			hint += "; use read_image to see it"
		}
		return fmt.Sprintf("%s is a binary file (%s, %s, %s); %s.", juju.PathText(ft.Path), ft.FileType, ft.MimeType, size(ft.Size), hint)
	}
	if ft.TotalLines == 0 && ft.content == "" && ft.ByteOffset == 0 {
		return fmt.Sprintf("(%s is empty)", juju.PathText(ft.Path))
	}
	notice := notice(ft)
	if ft.bom {
		mark := fmt.Sprintf("[%s starts with a UTF-8 byte-order mark, not shown: edit_file, apply_patch and write_file keep it.]", juju.PathText(ft.Path))
		if notice != "" {
			mark += "\n" + notice
		}
		notice = mark
	}
	if ft.Encoding != "" {
		enc := fmt.Sprintf("[%s is UTF-16 text (%s), shown converted to UTF-8. edit_file, apply_patch and write_file take UTF-8 text as shown and keep the file UTF-16.]", juju.PathText(ft.Path), ft.Encoding)
		if notice != "" {
			enc += "\n" + notice
		}
		notice = enc
	}
	if !numbered && notice == "" && strings.HasSuffix(ft.content, "\n") {
		return ft.content // the text is the content itself: no copy
	}
	var b strings.Builder
	b.Grow(len(ft.content) + ft.LineCount*numberWidth + 300)
	if numbered && ft.FirstLine > 0 {
		n := ft.FirstLine
		for line := range strings.Lines(ft.content) {
			b.WriteString(pad(n))
			b.WriteByte('\t')
			b.WriteString(line)
			n++
		}
	} else {
		b.WriteString(ft.content)
	}
	if ft.content != "" && !strings.HasSuffix(ft.content, "\n") {
		b.WriteByte('\n')
	}
	if notice != "" {
		b.WriteString("\n" + notice + "\n")
	}
	return b.String()
}

// notice tells the model what part of the file it got and how to go on.
func notice(ft *FileText) string {
	if ft.FirstLine == 0 { // a read by bytes
		// The range is inclusive, as HTTP's: "bytes 2-4" is three bytes,
		// and reading on starts at byte 5.
		what := fmt.Sprintf("bytes %d-%d of %d", ft.ByteOffset, ft.ByteOffset+int64(ft.Bytes)-1, ft.Size)
		if !ft.Truncated {
			return fmt.Sprintf("[Showing %s, the end of the file.]", what)
		}
		return fmt.Sprintf("[Truncated: showing %s (a read stops at %s). Call read_file with path %q and byteOffset %d to read on.]",
			what, size(ft.byteCap), ft.Path, ft.NextByteOffset)
	}
	if ft.lineCut {
		n := fmt.Sprintf("[Truncated: line %d is longer than %s and only its first %d bytes are shown. Call read_file with path %q and byteOffset %d to read on inside it (add maxBytes to read less); search_code finds text inside it.",
			ft.FirstLine, size(ft.byteCap), ft.Bytes, ft.Path, ft.NextByteOffset)
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

// AppendJSON writes the read's structured content as encoding/json would
// (juju.JSONAppender): reflection is what a small read spends most on
// inside wasm.
func (f *FileText) AppendJSON(b []byte) ([]byte, bool) {
	b = append(b, '{')
	return append(f.appendFields(b), '}'), true
}

// appendFields writes the fields of f's JSON object, without its braces.
func (f *FileText) appendFields(b []byte) []byte {
	b = append(b, `"path":`...)
	b = juju.AppendJSONString(b, f.Path)
	b = appendInt(b, `,"firstLine":`, int64(f.FirstLine))
	b = appendInt(b, `,"lineCount":`, int64(f.LineCount))
	b = appendInt(b, `,"totalLines":`, int64(f.TotalLines))
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, f.Truncated)
	if f.NextOffset != 0 {
		b = appendInt(b, `,"nextOffset":`, int64(f.NextOffset))
	}
	if f.ByteOffset != 0 {
		b = appendInt(b, `,"byteOffset":`, f.ByteOffset)
	}
	if f.NextByteOffset != 0 {
		b = appendInt(b, `,"nextByteOffset":`, f.NextByteOffset)
	}
	b = appendInt(b, `,"bytes":`, int64(f.Bytes))
	b = appendInt(b, `,"size":`, f.Size)
	if f.Binary {
		b = append(b, `,"binary":true`...)
	}
	if f.FileType != "" {
		b = juju.AppendJSONString(append(b, `,"fileType":`...), f.FileType)
	}
	if f.MimeType != "" {
		b = juju.AppendJSONString(append(b, `,"mimeType":`...), f.MimeType)
	}
	if f.Encoding != "" {
		b = juju.AppendJSONString(append(b, `,"encoding":`...), f.Encoding)
	}
	return b
}

// appendInt appends key and n.
func appendInt(b []byte, key string, n int64) []byte {
	return strconv.AppendInt(append(b, key...), n, 10)
}
