package read

import (
	"fmt"
	"path"
	"slices"
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

	plain bool // no string of the listing needs JSON escaping (juju.ListDirPlain)
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
	res, plain, err := juju.ListDirPlain(abi.ListRequest{Path: in.Path, IncludeIgnored: in.IncludeIgnored, Offset: in.Offset, Limit: in.Limit})
	if err != nil {
		return nil, err
	}
	out := &Listing{ListResult: *res, plain: plain}
	out.Truncated = false
	// Keep the entries whose lines and JSON fit.
	var lines []byte
	structured, kept := 0, 0
	for _, e := range res.Entries {
		n := len(lines)
		lines = appendEntryLine(lines, e)
		structured += entryJSONSize(e, plain)
		if len(lines) > maxListing || structured > maxListing {
			lines = lines[:n]
			break
		}
		kept++
	}
	out.Entries = res.Entries[:kept]
	shown := len(out.Entries)
	if next := in.Offset + shown; next < res.Total {
		out.Truncated, out.NextOffset = true, next
	}
	b := make([]byte, 0, len(lines)+400)
	b = juju.AppendPathText(b, res.Path)
	b = append(b, " ("...)
	b = append(b, plural(res.Total, "entry", "entries")...)
	b = append(b, ")\n"...)
	b = append(b, lines...)
	switch {
	case out.Truncated:
		b = fmt.Appendf(b, "[Showing entries %d to %d of %d. Call list_directory with offset %d to read on, list a subfolder, or find files by name with glob_files (a pattern such as %s).]\n",
			in.Offset+1, in.Offset+shown, res.Total, out.NextOffset, globHint(res.Path, res.Entries))
	case shown == 0 && in.Offset > 0 && res.Total > 0:
		b = fmt.Appendf(b, "[offset %d is past the last entry (the folder lists %s); pass an offset below %d.]\n", in.Offset, plural(res.Total, "entry", "entries"), res.Total)
	}
	if res.Ignored > 0 {
		b = fmt.Appendf(b, "[%s excluded by .gitignore not shown; pass includeIgnored: true to list them.]\n", plural(res.Ignored, "entry", "entries"))
	}
	if res.Hidden > 0 {
		b = fmt.Appendf(b, "[%s withheld by the workspace policy.]\n", plural(res.Hidden, "entry", "entries"))
	}
	if res.Unnamed > 0 {
		b = fmt.Appendf(b, "[%s not shown: names that are not UTF-8, which no argument can name; see them with run_command.]\n", plural(res.Unnamed, "entry", "entries"))
	}
	return juju.Text(string(b)).WithStructured(out), nil
}

// AppendJSON writes the listing's JSON as encoding/json would, copying its
// strings between quotes: it declines (the SDK encodes the listing) unless
// the host said no string needs escaping.
func (l *Listing) AppendJSON(b []byte) ([]byte, bool) {
	if !l.plain || l.Error != nil {
		return b, false
	}
	b = slices.Grow(b, 100+len(l.Path)+entriesJSONSize(l.Entries))
	b = append(b, `{"path":"`...)
	b = append(b, l.Path...)
	b = append(b, `","entries":`...)
	b = appendEntries(b, l.Entries)
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(l.Total), 10)
	if l.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	b = appendCount(b, `,"hidden":`, l.Hidden)
	b = appendCount(b, `,"ignored":`, l.Ignored)
	b = appendCount(b, `,"unnamed":`, l.Unnamed)
	b = appendCount(b, `,"nextOffset":`, l.NextOffset)
	return append(b, '}'), true
}

// appendCount appends key and n unless n is 0 (omitempty).
func appendCount(b []byte, key string, n int) []byte {
	if n == 0 {
		return b
	}
	return strconv.AppendInt(append(b, key...), int64(n), 10)
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
// byte of a string counted as the six of \u00XX when JSON may escape it,
// or, when the host said the strings are plain, as itself (no byte looked
// at: inside wasm each costs).
func entryJSONSize(e abi.Entry, plain bool) int {
	const fields = len(`{"name":"","path":"","type":"","size":,"modTime":"","target":""},`) + 20 // 20: the size's digits
	if plain {
		return fields + len(e.Name) + len(e.Path) + len(e.Type) + len(e.ModTime) + len(e.Target)
	}
	return fields + abi.JSONLen(e.Name) + abi.JSONLen(e.Path) + len(e.Type) + len(e.ModTime) + abi.JSONLen(e.Target)
}

// entriesJSONSize is at least the JSON size of plain entries.
func entriesJSONSize(ents []abi.Entry) int {
	n := 2
	for _, e := range ents {
		n += entryJSONSize(e, true)
	}
	return n
}

// appendEntries appends entries whose strings are plain as a JSON array,
// as encoding/json writes it.
func appendEntries(b []byte, ents []abi.Entry) []byte {
	b = append(b, '[')
	for i, e := range ents {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":"`...)
		b = append(b, e.Name...)
		b = append(b, `","path":"`...)
		b = append(b, e.Path...)
		b = append(b, `","type":"`...)
		b = append(b, e.Type...)
		b = append(b, `","size":`...)
		b = strconv.AppendInt(b, e.Size, 10)
		b = append(b, `,"modTime":"`...)
		b = append(b, e.ModTime...)
		if e.Target != "" {
			b = append(b, `","target":"`...)
			b = append(b, e.Target...)
		}
		b = append(b, `"}`...)
	}
	return append(b, ']')
}

// brokenLink stands for the target of a symlink listed without one: a link
// whose target is missing or loops (a link out of the roots, or to a secret
// or a denied path, is withheld, never listed).
const brokenLink = "(broken: its target is missing or loops)"

// appendEntryLine appends one line of a listing: "name/" for a folder,
// "name  (1.2 KB)" for a file, "name -> target" for a symlink.
func appendEntryLine(b []byte, e abi.Entry) []byte {
	b = juju.AppendPathText(b, e.Name)
	switch e.Type {
	case abi.TypeDir:
		b = append(b, '/')
	case abi.TypeFile:
		b = append(b, "  ("...)
		b = appendSize(b, e.Size)
		b = append(b, ')')
	case abi.TypeSymlink:
		b = append(b, " -> "...)
		if e.Target != "" {
			b = juju.AppendPathText(b, e.Target)
		} else {
			b = append(b, brokenLink...)
		}
	default:
		b = append(b, "  (special file)"...)
	}
	return append(b, '\n')
}
