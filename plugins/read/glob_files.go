package read

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// GlobFilesArgs are the arguments of glob_files.
type GlobFilesArgs struct {
	Pattern        string `json:"pattern" jsonschema:"required" min:"1" max:"4096" desc:"A doublestar glob matched against paths relative to path, e.g. **/*.go, src/**/*_test.ts, *.{md,txt}."`
	Path           string `json:"path,omitempty" default:"." desc:"The folder to search from (default: the first workspace root)."`
	SortBy         string `json:"sortBy,omitempty" enum:"name,mtime" default:"name" desc:"name: by path; mtime: most recently modified first."`
	Offset         int    `json:"offset,omitempty" min:"0" desc:"How many matches to skip, in the order asked for: pass the nextOffset of a cut result to read on."`
	Limit          int    `json:"limit,omitempty" default:"1000" min:"1" max:"10000" desc:"The most paths to return; a result is also cut before it reaches about 90 KB."`
	IncludeIgnored bool   `json:"includeIgnored,omitempty" desc:"Also match files that .gitignore excludes."`
}

// GlobResult is the structured content of glob_files.
type GlobResult struct {
	Pattern    string      `json:"pattern" desc:"The pattern matched."`
	Path       string      `json:"path" desc:"The folder searched."`
	Files      []abi.Entry `json:"files" jsonschema:"required" desc:"The matching files from offset on, in the order asked for."`
	Total      int         `json:"total" desc:"How many files match in all."`
	Truncated  bool        `json:"truncated" desc:"True when files stops before the last match (at limit, or at the size cap); read on with offset nextOffset, or narrow the pattern."`
	NextOffset int         `json:"nextOffset,omitempty" desc:"The offset to pass to get the matches after these, when there are any."`
	Hidden     int         `json:"hidden,omitempty" desc:"Matching files withheld and not counted in total: secrets and paths the owner denied, which no tool reads."`
	Unnamed    int         `json:"unnamed,omitempty" desc:"Matching files, and folders not searched, whose names are not UTF-8, which no argument can name (run_command can); not counted in total."`

	plain bool // no string of the result needs JSON escaping (juju.GlobPlain)
}

// AppendJSON writes the result's JSON as encoding/json would, copying its
// strings between quotes; it declines unless they are all plain.
func (g *GlobResult) AppendJSON(b []byte) ([]byte, bool) {
	if !g.plain {
		return b, false
	}
	b = slices.Grow(b, 100+len(g.Pattern)+len(g.Path)+entriesJSONSize(g.Files))
	b = append(b, `{"pattern":"`...)
	b = append(b, g.Pattern...)
	b = append(b, `","path":"`...)
	b = append(b, g.Path...)
	b = append(b, `","files":`...)
	b = appendEntries(b, g.Files)
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(g.Total), 10)
	b = strconv.AppendBool(append(b, `,"truncated":`...), g.Truncated)
	b = appendCount(b, `,"nextOffset":`, g.NextOffset)
	b = appendCount(b, `,"hidden":`, g.Hidden)
	b = appendCount(b, `,"unnamed":`, g.Unnamed)
	return append(b, '}'), true
}

func init() {
	juju.Tool("glob_files", juju.ReadTool("Find files by pattern",
		"Finds files whose path matches a glob (doublestar: ** crosses folders, {a,b} alternatives), "+
			"sorted by name or by modification time (newest first). Skips what .gitignore excludes unless includeIgnored, "+
			"and never returns secrets. Returns at most limit paths (default 1000) and about 90 KB, says how many match in all, "+
			"and offset reads on. Use search_code to search inside files.",
		GlobResult{}), globFiles)
}

func globFiles(_ *juju.Call, in GlobFilesArgs) (*juju.Result, error) {
	limit := in.Limit
	if limit == 0 {
		limit = 1000
	}
	// The host keeps the first offset+limit matches in order; the window
	// is cut here.
	res, plain, err := juju.GlobPlain(abi.GlobRequest{
		Pattern:        in.Pattern,
		Path:           in.Path,
		SortBy:         in.SortBy,
		Limit:          in.Offset + limit,
		IncludeIgnored: in.IncludeIgnored,
	})
	if err != nil {
		return nil, err
	}
	out := &GlobResult{Pattern: in.Pattern, Path: in.Path, Total: res.Total, Hidden: res.Hidden, Unnamed: res.Unnamed,
		plain: plain && abi.JSONPlain(in.Pattern) && abi.JSONPlain(in.Path)}
	window := res.Entries[min(in.Offset, len(res.Entries)):]
	var lines []byte
	structured, kept := 0, 0
	for _, e := range window {
		structured += entryJSONSize(e, plain)
		n := len(lines)
		lines = append(juju.AppendPathText(lines, e.Path), '\n')
		if len(lines) > maxListing || structured > maxListing {
			lines = lines[:n]
			break
		}
		kept++
	}
	out.Files = window[:kept]
	shown := len(out.Files)
	if next := in.Offset + shown; next < res.Total {
		out.Truncated, out.NextOffset = true, next
	}
	b := bytes.NewBuffer(lines)
	switch {
	case res.Total == 0:
		fmt.Fprintf(b, "No files match %q under %q. Check the pattern (** crosses folders; only files match, not folders), or pass includeIgnored: true for ignored files.\n", in.Pattern, in.Path)
	case shown == 0:
		fmt.Fprintf(b, "[offset %d is past the last match (%s); pass an offset below %d.]\n", in.Offset, plural(res.Total, "match", "matches"), res.Total)
	case out.Truncated:
		fmt.Fprintf(b, "[Showing matches %d to %d of %d. Call glob_files with offset %d to read on, or narrow the pattern.]\n",
			in.Offset+1, in.Offset+shown, res.Total, out.NextOffset)
	case in.Offset > 0:
		fmt.Fprintf(b, "[Matches %d to %d of %d.]\n", in.Offset+1, in.Offset+shown, res.Total)
	default:
		fmt.Fprintf(b, "[%s.]\n", plural(res.Total, "match", "matches"))
	}
	if res.Hidden > 0 {
		fmt.Fprintf(b, "[%s withheld: secrets or paths the owner denied, which no tool reads.]\n", plural(res.Hidden, "matching file", "matching files"))
	}
	if res.Unnamed > 0 {
		fmt.Fprintf(b, "[%s passed over: names that are not UTF-8, which no argument can name; see them with run_command.]\n", plural(res.Unnamed, "matching file or folder", "matching files or folders"))
	}
	return juju.Text(b.String()).WithStructured(out), nil
}
