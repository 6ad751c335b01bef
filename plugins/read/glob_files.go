package read

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// GlobFilesArgs are the arguments of glob_files.
type GlobFilesArgs struct {
	Pattern        string `json:"pattern" jsonschema:"required" min:"1" desc:"A doublestar glob matched against paths relative to path, e.g. **/*.go, src/**/*_test.ts, *.{md,txt}."`
	Path           string `json:"path,omitempty" default:"." desc:"The folder to search from (default: the first workspace root)."`
	SortBy         string `json:"sortBy,omitempty" enum:"name,mtime" default:"name" desc:"name: by path; mtime: most recently modified first."`
	Limit          int    `json:"limit,omitempty" default:"1000" min:"1" max:"10000" desc:"The most paths to return."`
	IncludeIgnored bool   `json:"includeIgnored,omitempty" desc:"Also match files that .gitignore excludes."`
}

// GlobResult is the structured content of glob_files.
type GlobResult struct {
	Pattern   string      `json:"pattern" desc:"The pattern matched."`
	Path      string      `json:"path" desc:"The folder searched."`
	Files     []abi.Entry `json:"files" jsonschema:"required" desc:"The matching files, in the order asked for."`
	Total     int         `json:"total" desc:"How many files match in all."`
	Truncated bool        `json:"truncated" desc:"True when files stops at limit; narrow the pattern or raise limit."`
}

func init() {
	juju.Tool("glob_files", juju.ReadTool("Find files by pattern",
		"Finds files whose path matches a glob (doublestar: ** crosses folders, {a,b} alternatives), "+
			"sorted by name or by modification time (newest first). Skips what .gitignore excludes unless includeIgnored, "+
			"and never returns secrets. Returns at most limit paths (default 1000) and says how many match in all. "+
			"Use search_code to search inside files.",
		GlobResult{}), globFiles)
}

func globFiles(_ *juju.Call, in GlobFilesArgs) (*juju.Result, error) {
	res, err := juju.Glob(abi.GlobRequest{
		Pattern:        in.Pattern,
		Path:           in.Path,
		SortBy:         in.SortBy,
		Limit:          in.Limit,
		IncludeIgnored: in.IncludeIgnored,
	})
	if err != nil {
		return nil, err
	}
	out := GlobResult{Pattern: in.Pattern, Path: in.Path, Files: res.Entries, Total: res.Total, Truncated: res.Truncated}
	if out.Files == nil {
		out.Files = []abi.Entry{}
	}
	var b strings.Builder
	for _, e := range res.Entries {
		b.WriteString(e.Path + "\n")
	}
	switch {
	case len(res.Entries) == 0:
		fmt.Fprintf(&b, "No files match %q under %s. Check the pattern (** crosses folders), or pass includeIgnored: true for ignored files.\n", in.Pattern, in.Path)
	case res.Truncated:
		fmt.Fprintf(&b, "[Showing %d of %d matches. Narrow the pattern or raise limit to see more.]\n", len(res.Entries), res.Total)
	default:
		fmt.Fprintf(&b, "[%s.]\n", plural(res.Total, "match", "matches"))
	}
	return juju.Text(b.String()).WithStructured(out), nil
}
