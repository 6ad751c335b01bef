package search

import (
	"regexp/syntax"
	"strings"
	"unicode"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// SearchCodeArgs are the arguments of search_code.
type SearchCodeArgs struct {
	Pattern       string `json:"pattern" jsonschema:"required" min:"1" max:"32768" desc:"What to find in each line: a regular expression in Go (RE2) syntax, e.g. func\\s+\\w+Handler, or the exact text with literal: true."`
	Literal       bool   `json:"literal,omitempty" desc:"Treat pattern as plain text: . ( [ * and the other regular expression characters match themselves."`
	CaseSensitive *bool  `json:"caseSensitive,omitempty" desc:"true: letter case must match; false: ignore case. Left out: smart case, i.e. case is ignored unless the pattern holds a capital letter."`
	Path          string `json:"path,omitempty" default:"." desc:"The folder (or one file) to search: relative to the first workspace root, or absolute inside a root."`
	FileGlob      string `json:"fileGlob,omitempty" max:"4096" desc:"Search only files matching this glob. Without a slash it matches file names at any depth (*.go, *.{ts,tsx}); with one it matches the path relative to path (src/**/*_test.go). A leading ! searches every file but those it matches (!*.min.js, !vendor/**); !NAME also leaves out the folders named NAME at any depth (!vendor, !node_modules). A glob ending in / is a folder and what it holds (src/)."`
	OutputMode    string `json:"outputMode,omitempty" enum:"content,files,count" default:"content" desc:"content: the matching lines with their file, line and column; files: only the files that match; count: matching lines per file."`
	ContextLines  int    `json:"contextLines,omitempty" min:"0" max:"10" desc:"Lines shown before and after each matching line (content mode)."`
	MaxResults    int    `json:"maxResults,omitempty" default:"100" min:"1" max:"2000" desc:"The most matching lines (content) or files (files, count) to return; the result says when more exist."`
	TimeoutMs     int    `json:"timeoutMs,omitempty" default:"15000" min:"1" max:"25000" desc:"Stop searching after this many milliseconds and return what was found, marked partial."`
}

// SearchCodeResult is the structured content of search_code.
type SearchCodeResult struct {
	Pattern   string           `json:"pattern" desc:"The pattern searched for."`
	Path      string           `json:"path" desc:"The folder or file searched."`
	Mode      string           `json:"outputMode" desc:"The output mode."`
	Engine    string           `json:"engine" desc:"ripgrep, or juju: the host's own search, used when ripgrep is not installed (or does not take the pattern)."`
	Files     []abi.SearchFile `json:"files" jsonschema:"required" desc:"The files with matches, with their matching lines (content) or counts (count)."`
	Matches   *int             `json:"matches,omitempty" desc:"Matching lines returned (content) or counted in the files returned (count); absent in files mode, which counts no lines."`
	Truncated bool             `json:"truncated" desc:"True when the search stopped at maxResults (or at the output size cap, or, in count mode, a file's count at 10000): more matches exist; narrow the pattern, path or fileGlob."`
	Partial   bool             `json:"partial" desc:"True when results are incomplete: the search ran out of time before it covered every file, or files changed while they were searched."`
	LongLines []abi.SearchLine `json:"longLines,omitempty" desc:"Matching lines too long to return (64 KiB or more, such as a minified bundle's; at most 20 are named): read them with read_file and byteOffset."`
	Aborted   bool             `json:"aborted,omitempty" desc:"True when ripgrep stopped at its memory cap (a huge line, or one with millions of matches): files it had not reached are missing."`
}

func init() {
	juju.Tool("search_code", juju.ReadTool("Search code",
		"Searches the content of the workspace's files, line by line, for a regular expression (Go RE2 syntax) or, with literal: true, an exact text. "+
			"Case: smart by default (ignored unless the pattern holds a capital letter); caseSensitive: true or false forces it. "+
			"outputMode content (default) returns file:line:column and the line, with contextLines around it; files returns only the matching files; count the matching lines per file. "+
			"Narrow with path (a folder) and fileGlob (*.go, src/**/*.ts). Skips what .gitignore excludes, binary files and .git; never searches secrets or denied paths. "+
			"Returns at most maxResults (default 100) and says when more exist; a search that reaches timeoutMs returns what it found, marked partial. Runs ripgrep on the host when installed, otherwise juju's own search. "+
			"Use glob_files to find files by name.",
		SearchCodeResult{}), searchCode)
}

func searchCode(_ *juju.Call, in SearchCodeArgs) (*juju.Result, error) {
	if strings.ContainsAny(in.Pattern, "\r\n") {
		return nil, juju.Errorf(abi.InvalidArgument, "the pattern holds a line break, but matches are found line by line; search for one line at a time")
	}
	ignoreCase := !smartSensitive(in.Pattern, in.Literal)
	if in.CaseSensitive != nil {
		ignoreCase = !*in.CaseSensitive
	}
	// The host searches (ripgrep, or its own search where rg is missing)
	// and refuses a pattern neither takes.
	glob, skip := folderGlob(in.FileGlob)
	res, err := juju.Search(abi.SearchRequest{
		Pattern: in.Pattern, Literal: in.Literal, IgnoreCase: ignoreCase, Path: in.Path,
		Glob: glob, SkipDirs: skip, Mode: in.OutputMode, ContextLines: in.ContextLines,
		MaxResults: in.MaxResults, TimeoutMs: int64(in.TimeoutMs),
	})
	if err != nil {
		return nil, err
	}
	return render(in, res), nil
}

// folderGlob reads fileGlob as ripgrep's --glob does for folders, the
// way models write it from rg and Claude Code's Grep: a leaving-out glob
// of one name (!vendor, !node_modules, !dist/) leaves out the folders of
// that name at any depth too, not only files so named, and a glob ending
// in a slash (src/, !build/) means a folder and what it holds, which no
// file's path matches as written. It returns the file glob for the host
// and the folder names the search is not to enter.
func folderGlob(g string) (glob string, skip []string) {
	rest, exclude := strings.CutPrefix(g, "!")
	name, folder := strings.CutSuffix(rest, "/")
	if name == "" || strings.HasSuffix(name, "/") {
		return g, nil
	}
	oneName := !strings.ContainsAny(name, "/\\\n\r\x00") && !strings.HasPrefix(name, "!")
	switch {
	case exclude && oneName && folder:
		return "", []string{name}
	case exclude && oneName:
		return g, []string{name}
	case folder && exclude:
		return "!" + name + "/**", nil
	case folder:
		return name + "/**", nil
	}
	return g, nil
}

// smartSensitive reports whether smart case makes the search case
// sensitive: the pattern holds a capital letter as text to match (an
// escape such as \W or \S is not one).
func smartSensitive(pattern string, literal bool) bool {
	if literal {
		return strings.IndexFunc(pattern, unicode.IsUpper) >= 0
	}
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return strings.IndexFunc(pattern, unicode.IsUpper) >= 0
	}
	return hasUpperLiteral(re)
}

func hasUpperLiteral(re *syntax.Regexp) bool {
	if re.Op == syntax.OpLiteral {
		for _, r := range re.Rune {
			if unicode.IsUpper(r) {
				return true
			}
		}
	}
	for _, sub := range re.Sub {
		if hasUpperLiteral(sub) {
			return true
		}
	}
	return false
}
