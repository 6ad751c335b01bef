package native

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// defaultLimit is glob_files' default limit, as the plugin has it.
const defaultLimit = 1000

// GlobFilesArgs are the arguments of glob_files.
type GlobFilesArgs struct {
	Pattern string `json:"pattern" jsonschema:"required" jsonschema_description:"A doublestar glob, relative to path."`
	Path    string `json:"path,omitempty" jsonschema_description:"The folder to search from (default: the root)."`
	SortBy  string `json:"sortBy,omitempty" jsonschema_description:"name or mtime."`
	Limit   int    `json:"limit,omitempty" jsonschema_description:"The most paths to return (default 1000)."`
}

// globResult is the structured content of glob_files.
type globResult struct {
	Pattern   string  `json:"pattern"`
	Path      string  `json:"path"`
	Files     []Entry `json:"files"`
	Total     int     `json:"total"`
	Truncated bool    `json:"truncated"`
}

// GlobFiles is glob_files: filepath.WalkDir and doublestar.Match, every
// match described, sorted, the first limit kept.
func (f *FS) GlobFiles(in GlobFilesArgs) (*Result, error) {
	if in.Path == "" {
		in.Path = "."
	}
	if in.Limit <= 0 {
		in.Limit = defaultLimit
	}
	if !doublestar.ValidatePattern(in.Pattern) {
		return nil, errorf("INVALID_ARGUMENT", "%q is not a valid glob", in.Pattern)
	}
	entries, err := f.Glob(in.Path, in.Pattern)
	if err != nil {
		return nil, err
	}
	if in.SortBy == "mtime" {
		slices.SortStableFunc(entries, func(a, b Entry) int { return strings.Compare(b.ModTime, a.ModTime) })
	}
	out := globResult{Pattern: in.Pattern, Path: in.Path, Total: len(entries), Files: entries}
	if len(entries) > in.Limit {
		out.Files, out.Truncated = entries[:in.Limit], true
	}
	var b strings.Builder
	for _, e := range out.Files {
		b.WriteString(e.Path + "\n")
	}
	switch {
	case len(out.Files) == 0:
		fmt.Fprintf(&b, "No files match %q under %s.\n", in.Pattern, in.Path)
	case out.Truncated:
		fmt.Fprintf(&b, "[Showing %d of %d matches. Narrow the pattern or raise limit to see more.]\n", len(out.Files), out.Total)
	default:
		fmt.Fprintf(&b, "[%s.]\n", plural(out.Total, "match", "matches"))
	}
	return encode(b.String(), out)
}

// Glob walks base (relative to the root) and returns every file whose path
// relative to base matches pattern, sorted by path.
func (f *FS) Glob(base, pattern string) ([]Entry, error) {
	abs, display, err := f.resolve(base)
	if err != nil {
		return nil, err
	}
	var out []Entry
	err = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil // an unreadable folder is skipped, not fatal
		}
		rel := filepath.ToSlash(p[len(abs)+1:])
		if ok, _ := doublestar.Match(pattern, rel); !ok {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		out = append(out, Entry{Name: d.Name(), Path: path.Join(display, rel), Type: fileType(info.Mode()), Size: info.Size(), ModTime: modTime(info.ModTime())})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}
