package read

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// ListDirectoryArgs are the arguments of list_directory.
type ListDirectoryArgs struct {
	Path           string `json:"path,omitempty" default:"." desc:"The folder to list: relative to the first workspace root (default: the root itself), or absolute inside a root."`
	IncludeIgnored bool   `json:"includeIgnored,omitempty" desc:"Also list entries that .gitignore excludes (build output, dependencies …)."`
	Offset         int    `json:"offset,omitempty" min:"0" desc:"How many entries to skip, in name order: pass the nextOffset of a cut listing to read on."`
	Limit          int    `json:"limit,omitempty" default:"500" min:"1" max:"2000" desc:"The most entries to return; a listing is also cut before it reaches about 90 KB."`
}

// Listing is list_directory's structured content: the host's listing,
// cut to what a reply holds, and where to read on.
type Listing struct {
	abi.ListResult
	NextOffset int `json:"nextOffset,omitempty" desc:"The offset to pass to list the entries after these, when there are any."`
}

// maxListing bounds the text of a listing and, apart, its structured
// content: results stay under 100,000 bytes each (SPEC §4), with room for
// the lines around the entries.
const maxListing = 90_000

func init() {
	juju.Tool("list_directory", juju.ReadTool("List directory",
		"Lists one folder of the workspace: its files (with sizes), subfolders (ending in /) and symlinks (-> target), "+
			"sorted by name. Entries that .gitignore excludes are counted but not listed unless includeIgnored is true; "+
			"secrets are never listed. A large folder is listed in parts: at most limit entries (default 500) and about 90 KB, "+
			"then offset reads on. Use glob_files to find files in a whole tree.",
		Listing{}), listDirectory)
}

func listDirectory(_ *juju.Call, in ListDirectoryArgs) (*juju.Result, error) {
	res, err := juju.ListDir(abi.ListRequest{Path: in.Path, IncludeIgnored: in.IncludeIgnored, Offset: in.Offset, Limit: in.Limit})
	if err != nil {
		return nil, err
	}
	out := Listing{ListResult: *res}
	out.Entries = make([]abi.Entry, 0, len(res.Entries))
	out.Truncated = false
	var lines strings.Builder
	structured := 0
	for _, e := range res.Entries {
		line := entryLine(e)
		n := entryJSONSize(e)
		if lines.Len()+len(line) > maxListing || structured+n > maxListing {
			break
		}
		lines.WriteString(line)
		structured += n
		out.Entries = append(out.Entries, e)
	}
	shown := len(out.Entries)
	if next := in.Offset + shown; next < res.Total {
		out.Truncated, out.NextOffset = true, next
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n", res.Path, plural(res.Total, "entry", "entries"))
	b.WriteString(lines.String())
	switch {
	case out.Truncated:
		fmt.Fprintf(&b, "[Showing entries %d to %d of %d. Call list_directory with offset %d to read on, list a subfolder, or find files by name with glob_files (a pattern such as %s).]\n",
			in.Offset+1, in.Offset+shown, res.Total, out.NextOffset, globHint(res.Path, res.Entries))
	case shown == 0 && in.Offset > 0 && res.Total > 0:
		fmt.Fprintf(&b, "[offset %d is past the last entry (the folder lists %s); pass an offset below %d.]\n", in.Offset, plural(res.Total, "entry", "entries"), res.Total)
	}
	if res.Ignored > 0 {
		fmt.Fprintf(&b, "[%s excluded by .gitignore not shown; pass includeIgnored: true to list them.]\n", plural(res.Ignored, "entry", "entries"))
	}
	if res.Hidden > 0 {
		fmt.Fprintf(&b, "[%s withheld by the workspace policy.]\n", plural(res.Hidden, "entry", "entries"))
	}
	return juju.Text(b.String()).WithStructured(out), nil
}

// globHint is a glob_files pattern over the folder listed, for the kind of
// file it holds.
func globHint(dir string, ents []abi.Entry) string {
	pattern := "*"
	for _, e := range ents {
		if ext := path.Ext(e.Name); e.Type == abi.TypeFile && ext != "" && ext != e.Name {
			pattern = "*" + ext
			break
		}
	}
	if dir != "." && dir != "" {
		pattern = strings.TrimSuffix(dir, "/") + "/" + pattern
	}
	return strconv.Quote(pattern)
}

// entryJSONSize is at least the size of e in the structured content: each
// byte of a string counted as the six of \u00XX when JSON may escape it.
func entryJSONSize(e abi.Entry) int {
	const fields = len(`{"name":"","path":"","type":"","size":,"modTime":"","target":""},`) + 20 // 20: the size's digits
	return fields + jsonLen(e.Name) + jsonLen(e.Path) + len(e.Type) + len(e.ModTime) + jsonLen(e.Target)
}

func jsonLen(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			n += 6
		} else {
			n++
		}
	}
	return n
}

// entryLine is one line of a listing: "name/" for a folder, "name  (1.2 KB)"
// for a file, "name -> target" for a symlink.
func entryLine(e abi.Entry) string {
	switch e.Type {
	case abi.TypeDir:
		return e.Name + "/\n"
	case abi.TypeFile:
		return fmt.Sprintf("%s  (%s)\n", e.Name, size(e.Size))
	case abi.TypeSymlink:
		if e.Target != "" {
			return e.Name + " -> " + e.Target + "\n"
		}
		return e.Name + " -> (outside the workspace)\n"
	}
	return e.Name + "  (special file)\n"
}
