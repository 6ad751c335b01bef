package read

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// maxPaths bounds one read_files call; minShare is the least byte budget a
// file gets when many share the cap; perFile is what a file's section
// holds besides its text (its header, a notice).
const (
	maxPaths = 50
	minShare = 512
	perFile  = 450
)

// ReadFilesArgs are the arguments of read_files.
type ReadFilesArgs struct {
	Paths    []string `json:"paths" jsonschema:"required" min:"1" max:"50" desc:"The files to read (1 to 50), relative to the first workspace root or absolute inside a root."`
	Numbered bool     `json:"numbered,omitempty" desc:"Prefix each line with its number and a tab, like cat -n."`
}

// ReadFilesResult is the structured content of read_files.
type ReadFilesResult struct {
	Files  []FileRead `json:"files" jsonschema:"required" desc:"One entry per path, in the order given."`
	Read   int        `json:"read" desc:"How many paths were read."`
	Failed int        `json:"failed" desc:"How many paths could not be read; each has an error."`
}

// FileRead is one path of read_files: its read, or why it failed.
type FileRead struct {
	FileText
	Error *abi.Error `json:"error,omitempty" desc:"Why this path could not be read: a code such as NOT_FOUND or SECRET_DENIED and what to do."`
}

func init() {
	juju.Tool("read_files", juju.ReadTool("Read several files",
		"Reads up to 50 text files in one call, each shown under a ==> path <== header. "+
			"Prefer it to several read_file calls. A path that cannot be read (missing, secret, outside the roots) gets its own "+
			"error section with its code and the others are still returned; the call fails only when no path could be read. "+
			"The 90 KB cap is shared between the files; a file that is cut says how to read the rest with read_file.",
		ReadFilesResult{}), readFiles)
}

func readFiles(_ *juju.Call, in ReadFilesArgs) (*juju.Result, error) {
	// The files share the cap of one result's text.
	room := maxText
	for _, p := range in.Paths {
		room -= perFile + len(p)
	}
	share := max(int64(room/len(in.Paths)), minShare)
	sp := span{byteCap: share, numbered: in.Numbered}
	reqs := make([]abi.ReadRequest, len(in.Paths))
	for i, p := range in.Paths {
		reqs[i] = lineRequest(p, sp)
	}
	// One host call for every file: the host reads them at once.
	reads, err := juju.ReadFiles(reqs)
	if err != nil {
		return nil, err
	}
	out := ReadFilesResult{Files: make([]FileRead, 0, len(in.Paths))}
	var b strings.Builder
	size := 0
	for i, p := range in.Paths {
		size += len(p) + len(reads[i].Bytes) + 16
	}
	b.Grow(size)
	for i, p := range in.Paths {
		fr := FileRead{FileText: FileText{Path: p}}
		var ft *FileText
		err := reads[i].Err
		if err == nil {
			ft, err = shapeLines(reads[i].Result, reads[i].Bytes, sp)
		}
		if err != nil {
			e, ok := juju.AsError(err)
			if !ok {
				return nil, err
			}
			fr.Error = e
			out.Failed++
			writeSection(&b, p, string(e.Code)+": "+e.Message+"\n")
		} else {
			fr.FileText = *ft
			out.Read++
			writeSection(&b, ft.Path, render(ft, in.Numbered))
		}
		out.Files = append(out.Files, fr)
	}
	if out.Read == 0 {
		return nil, allFailed(out.Files)
	}
	// Every section ends in a newline: keep one of the last ones, without
	// a copy of the text.
	text := b.String()
	text = text[:len(strings.TrimRight(text, "\n"))+1]
	return juju.Text(text).WithStructured(&out), nil
}

// writeSection writes one file's section of the text: its header, then
// its text and an empty line (a one-line text, such as an empty or binary
// file's, gets its line break first).
func writeSection(b *strings.Builder, path, text string) {
	b.WriteString("==> ")
	b.WriteString(juju.PathText(path))
	b.WriteString(" <==\n")
	b.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
}

// AppendJSON writes the result's JSON as encoding/json would
// (juju.JSONAppender).
func (r *ReadFilesResult) AppendJSON(b []byte) ([]byte, bool) {
	if r.Files == nil {
		return b, false // null: encoding/json's business
	}
	b = append(b, `{"files":[`...)
	for i := range r.Files {
		f := &r.Files[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = f.appendFields(append(b, '{'))
		if f.Error != nil {
			b = juju.AppendJSONString(append(b, `,"error":{"code":`...), string(f.Error.Code))
			b = juju.AppendJSONString(append(b, `,"message":`...), f.Error.Message)
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	b = appendInt(b, `],"read":`, int64(r.Read))
	b = appendInt(b, `,"failed":`, int64(r.Failed))
	return append(b, '}'), true
}

// allFailed is the error of a read_files call where no path could be read:
// the first path's code, and every path's reason.
func allFailed(files []FileRead) error {
	var reasons []string
	for i, f := range files {
		if i == 5 {
			reasons = append(reasons, fmt.Sprintf("and %d more", len(files)-i))
			break
		}
		name := juju.PathText(f.Path)
		if name == "" {
			name = `""` // an empty path, named so that the sentence still reads
		}
		reasons = append(reasons, fmt.Sprintf("%s: %s (%s)", name, f.Error.Code, f.Error.Message))
	}
	if len(files) == 1 {
		return juju.Errorf(files[0].Error.Code, "the path could not be read: %s", reasons[0])
	}
	return juju.Errorf(files[0].Error.Code, "none of the %d paths could be read: %s", len(files), strings.Join(reasons, "; "))
}
