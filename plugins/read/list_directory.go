package read

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// ListDirectoryArgs are the arguments of list_directory.
type ListDirectoryArgs struct {
	Path           string `json:"path,omitempty" default:"." desc:"The folder to list: relative to the first workspace root (default: the root itself), or absolute inside a root."`
	IncludeIgnored bool   `json:"includeIgnored,omitempty" desc:"Also list entries that .gitignore excludes (build output, dependencies …)."`
}

// Listing is the structured content of list_directory.
type Listing struct {
	Path    string  `json:"path" desc:"The folder listed, relative to the first root."`
	Entries []Entry `json:"entries" jsonschema:"required" desc:"The folder's entries, sorted by name."`
	Hidden  int     `json:"hidden,omitempty" desc:"Entries withheld by the workspace policy (secrets, denied paths)."`
	Ignored int     `json:"ignored,omitempty" desc:"Entries not listed because .gitignore excludes them; includeIgnored lists them."`
}

// Entry is one entry of a listing or of a glob.
type Entry struct {
	Name    string `json:"name" desc:"The entry's name."`
	Path    string `json:"path" desc:"Its path, relative to the first root."`
	Type    string `json:"type" enum:"file,dir,symlink,other" desc:"What it is."`
	Size    int64  `json:"size" desc:"Size in bytes."`
	ModTime string `json:"modTime" desc:"Last modification time (RFC 3339)."`
	Target  string `json:"target,omitempty" desc:"For a symlink: its target, relative to the first root."`
}

func init() {
	juju.Tool("list_directory", juju.ReadTool("List directory",
		"Lists one folder of the workspace: its files (with sizes), subfolders (ending in /) and symlinks (-> target), "+
			"sorted by name. Entries that .gitignore excludes are counted but not listed unless includeIgnored is true; "+
			"secrets are never listed. Use glob_files to find files in a whole tree.",
		Listing{}), listDirectory)
}

func listDirectory(_ *juju.Call, in ListDirectoryArgs) (*juju.Result, error) {
	res, err := juju.ListDir(abi.ListRequest{Path: in.Path, IncludeIgnored: in.IncludeIgnored})
	if err != nil {
		return nil, err
	}
	out := Listing{Path: res.Path, Entries: make([]Entry, len(res.Entries)), Hidden: res.Hidden, Ignored: res.Ignored}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n", res.Path, plural(len(res.Entries), "entry", "entries"))
	for i, e := range res.Entries {
		out.Entries[i] = entry(e)
		b.WriteString(entryLine(e))
	}
	if res.Ignored > 0 {
		fmt.Fprintf(&b, "[%s excluded by .gitignore not shown; pass includeIgnored: true to list them.]\n", plural(res.Ignored, "entry", "entries"))
	}
	if res.Hidden > 0 {
		fmt.Fprintf(&b, "[%s withheld by the workspace policy.]\n", plural(res.Hidden, "entry", "entries"))
	}
	return juju.Text(b.String()).WithStructured(out), nil
}

func entry(e abi.Entry) Entry {
	return Entry{Name: e.Name, Path: e.Path, Type: e.Type, Size: e.Size, ModTime: e.ModTime, Target: e.Target}
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
