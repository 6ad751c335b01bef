package native

import (
	"bytes"
	"fmt"
	"os"
	"strings"
)

// Caps of one read, as the core read tools have them.
const (
	defaultLines = 2000
	maxBytes     = 100 << 10
	maxPaths     = 50
	minShare     = 2 << 10
	sniffLen     = 8 << 10 // bytes searched for a NUL to tell a binary file
)

// ReadFileArgs are the arguments of read_file.
type ReadFileArgs struct {
	Path     string `json:"path" jsonschema:"required" jsonschema_description:"The file to read, relative to the root."`
	Offset   int    `json:"offset,omitempty" jsonschema_description:"The 1-based first line."`
	Limit    int    `json:"limit,omitempty" jsonschema_description:"How many lines to read."`
	Numbered bool   `json:"numbered,omitempty" jsonschema_description:"Prefix lines with their numbers."`
}

// ReadFilesArgs are the arguments of read_files.
type ReadFilesArgs struct {
	Paths    []string `json:"paths" jsonschema:"required" jsonschema_description:"The files to read."`
	Numbered bool     `json:"numbered,omitempty" jsonschema_description:"Prefix lines with their numbers."`
}

// FileText is one file's read, with the fields of the plugin's.
type FileText struct {
	Path       string `json:"path"`
	Content    string `json:"content"`
	FirstLine  int    `json:"firstLine"`
	LineCount  int    `json:"lineCount"`
	TotalLines int    `json:"totalLines"`
	Truncated  bool   `json:"truncated"`
	NextOffset int    `json:"nextOffset,omitempty"`
	Size       int64  `json:"size"`
	Binary     bool   `json:"binary,omitempty"`
}

// fileRead is one path of read_files.
type fileRead struct {
	FileText
	Error *Error `json:"error,omitempty"`
}

// readFilesResult is the structured content of read_files.
type readFilesResult struct {
	Files  []fileRead `json:"files"`
	Read   int        `json:"read"`
	Failed int        `json:"failed"`
}

// ReadFile is read_file.
func (f *FS) ReadFile(in ReadFileArgs) (*Result, error) {
	ft, err := f.readSpan(in.Path, in.Offset, in.Limit, maxBytes)
	if err != nil {
		return nil, err
	}
	return encode(render(ft, in.Numbered), ft)
}

// ReadFiles is read_files.
func (f *FS) ReadFiles(in ReadFilesArgs) (*Result, error) {
	if len(in.Paths) == 0 || len(in.Paths) > maxPaths {
		return nil, errorf("INVALID_ARGUMENT", "paths must hold 1 to %d paths", maxPaths)
	}
	share := max(int64(maxBytes/len(in.Paths)), minShare)
	out := readFilesResult{Files: make([]fileRead, 0, len(in.Paths))}
	var b strings.Builder
	for _, p := range in.Paths {
		fr := fileRead{FileText: FileText{Path: p}}
		ft, err := f.readSpan(p, 1, 0, share)
		if err != nil {
			e, ok := err.(*Error)
			if !ok {
				return nil, err
			}
			fr.Error = e
			out.Failed++
			fmt.Fprintf(&b, "==> %s <==\n%s: %s\n\n", p, e.Code, e.Message)
		} else {
			fr.FileText = *ft
			out.Read++
			fmt.Fprintf(&b, "==> %s <==\n%s\n", ft.Path, render(ft, in.Numbered))
		}
		out.Files = append(out.Files, fr)
	}
	if out.Read == 0 {
		return nil, errorf(out.Files[0].Error.Code, "none of the %d paths could be read", len(in.Paths))
	}
	return encode(strings.TrimRight(b.String(), "\n")+"\n", out)
}

// readSpan reads lines [offset, offset+limit) of path within byteCap bytes;
// limit 0 means up to defaultLines. It is the host's line read and the
// plugin's bookkeeping in one.
func (f *FS) readSpan(path string, offset, limit int, byteCap int64) (*FileText, error) {
	abs, display, err := f.resolve(path)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, errorf("INVALID_ARGUMENT", "%s cannot be read as a file", display)
	}
	first := max(offset, 1)
	lines := limit
	if lines == 0 {
		lines = defaultLines
	}
	ft := &FileText{Path: display, Size: int64(len(data)), FirstLine: first}
	if bytes.IndexByte(data[:min(len(data), sniffLen)], 0) >= 0 {
		ft.Binary, ft.FirstLine = true, 0
		return ft, nil
	}
	total := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		total++
	}
	ft.TotalLines = total
	// Skip to the first line, then take up to lines lines within byteCap.
	body := data
	for i := 1; i < first && len(body) > 0; i++ {
		j := bytes.IndexByte(body, '\n')
		if j < 0 {
			body = nil
			break
		}
		body = body[j+1:]
	}
	end, count := 0, 0
	for count < lines && end < len(body) {
		j := bytes.IndexByte(body[end:], '\n')
		next := len(body)
		if j >= 0 {
			next = end + j + 1
		}
		if int64(next) > byteCap {
			break
		}
		end, count = next, count+1
	}
	cut := false
	if count == 0 && end < len(body) && count < lines {
		// One line longer than the cap: keep its start.
		end, count, cut = int(byteCap), 1, true
	}
	if count == 0 && first > 1 && first > total {
		return nil, errorf("INVALID_ARGUMENT", "%s has %s, so offset %d is past its end; call read_file again with an offset from 1 to %d",
			display, plural(total, "line", "lines"), first, max(total, 1))
	}
	ft.Content, ft.LineCount = string(body[:end]), count
	last := first + count - 1
	capped := count < lines && end < len(body)
	switch {
	case cut || capped:
		ft.Truncated = true
		if last < total {
			ft.NextOffset = last + 1
		}
	case last < total:
		ft.NextOffset = last + 1
		ft.Truncated = limit == 0 || count < limit
	}
	return ft, nil
}

// render is the text the model reads: the lines, numbered when asked, and
// how to read on.
func render(ft *FileText, numbered bool) string {
	if ft.Binary {
		return fmt.Sprintf("%s is a binary file (%s); its bytes are not shown.", ft.Path, size(ft.Size))
	}
	if ft.TotalLines == 0 && ft.Content == "" {
		return fmt.Sprintf("(%s is empty)", ft.Path)
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
	if ft.NextOffset > 0 {
		what := fmt.Sprintf("Showing lines %d-%d of %d", ft.FirstLine, ft.NextOffset-1, ft.TotalLines)
		if ft.Truncated {
			fmt.Fprintf(&b, "\n[Truncated: %s (a read stops at %d lines or %s). Call read_file with path %q and offset %d to read the rest.]\n",
				what, defaultLines, size(maxBytes), ft.Path, ft.NextOffset)
		} else {
			fmt.Fprintf(&b, "\n[%s. Call read_file with offset %d to read on.]\n", what, ft.NextOffset)
		}
	}
	return b.String()
}
