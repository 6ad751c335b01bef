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

func init() {
	juju.Tool("list_directory", juju.ReadTool("List directory",
		"Lists one folder of the workspace: its files (with sizes), subfolders (ending in /) and symlinks (-> target), "+
			"sorted by name. Entries that .gitignore excludes are counted but not listed unless includeIgnored is true; "+
			"secrets are never listed. Use glob_files to find files in a whole tree.",
		abi.ListResult{}), listDirectory)
}

func listDirectory(_ *juju.Call, in ListDirectoryArgs) (*juju.Result, error) {
	res, err := juju.ListDir(abi.ListRequest{Path: in.Path, IncludeIgnored: in.IncludeIgnored})
	if err != nil {
		return nil, err
	}
	if res.Entries == nil {
		res.Entries = []abi.Entry{}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n", res.Path, plural(len(res.Entries), "entry", "entries"))
	for _, e := range res.Entries {
		b.WriteString(entryLine(e))
	}
	if res.Ignored > 0 {
		fmt.Fprintf(&b, "[%s excluded by .gitignore not shown; pass includeIgnored: true to list them.]\n", plural(res.Ignored, "entry", "entries"))
	}
	if res.Hidden > 0 {
		fmt.Fprintf(&b, "[%s withheld by the workspace policy.]\n", plural(res.Hidden, "entry", "entries"))
	}
	return juju.Text(b.String()).WithStructured(res), nil
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
