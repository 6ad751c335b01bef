package search

import (
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/jujutools/juju/sdk/abi"
)

// validate checks what the host relies on before building rg's arguments.
func validate(req *abi.SearchRequest) *abi.Error {
	switch {
	case req.Pattern == "":
		return abi.Errorf(abi.InvalidArgument, "the pattern is empty; give a regular expression or, with literal: true, the text to find")
	case strings.ContainsAny(req.Pattern, "\n\r"):
		return abi.Errorf(abi.InvalidArgument, "the pattern holds a line break, but matches are found line by line; search for one line at a time")
	case strings.ContainsRune(req.Pattern, 0):
		return abi.Errorf(abi.InvalidArgument, "the pattern holds a NUL character; remove it")
	case len(req.Pattern) > abi.MaxSearchPattern:
		return abi.Errorf(abi.TooLarge, "the pattern is %d bytes, longer than the %d KiB a search takes; search for a shorter one (a distinctive part of the text)", len(req.Pattern), abi.MaxSearchPattern>>10)
	case strings.IndexByte(req.Glob, 0) >= 0:
		return abi.Errorf(abi.InvalidArgument, "the file glob holds a NUL byte, which no file name can; remove it")
	case len(req.Glob) > abi.MaxSearchGlob:
		return abi.Errorf(abi.InvalidArgument, "the file glob is %d bytes, longer than any path (%d); use a shorter glob", len(req.Glob), abi.MaxSearchGlob)
	case req.ContextLines < 0 || req.ContextLines > 100:
		return abi.Errorf(abi.InvalidArgument, "contextLines must be between 0 and 100")
	case req.MaxResults < 0:
		return abi.Errorf(abi.InvalidArgument, "maxResults must not be negative")
	}
	if g, _ := splitGlob(req.Glob); req.Glob != "" {
		switch {
		case g == "" || !doublestar.ValidatePattern(g):
			return abi.Errorf(abi.InvalidArgument, "the file glob %s is not a valid glob; use e.g. *.go, src/**/*.ts, or !*.min.js to leave files out", abi.Quote(req.Glob))
		case abi.GlobForms(g) > abi.MaxGlobForms:
			return abi.Errorf(abi.InvalidArgument, "the file glob's brace groups expand to more than %d forms; use fewer {a,b} groups", abi.MaxGlobForms)
		case strings.HasPrefix(g, "/") || g == ".." || strings.HasPrefix(g, "../") || strings.Contains(g, "/../") || strings.HasSuffix(g, "/.."):
			return abi.Errorf(abi.InvalidArgument, "the file glob %s must be relative to the folder in path (no leading / and no ..); put the folder in path and keep the glob below it", abi.Quote(req.Glob))
		}
	}
	if len(req.SkipDirs) > abi.MaxSkipDirs {
		return abi.Errorf(abi.InvalidArgument, "skipDirs names %d folders, more than the %d a search takes", len(req.SkipDirs), abi.MaxSkipDirs)
	}
	for _, g := range req.SkipDirs {
		// A leading ! would turn rg's exclusion into an inclusion.
		if g == "" || g[0] == '!' || len(g) > abi.MaxSearchGlob || strings.ContainsAny(g, "/\\\x00\n\r") || !doublestar.ValidatePattern(g) || abi.GlobForms(g) > abi.MaxGlobForms {
			return abi.Errorf(abi.InvalidArgument, "the folder to skip %s is not a glob of one folder name; use e.g. testdata or .*", abi.Quote(g))
		}
	}
	switch req.Mode {
	case "", abi.SearchContent, abi.SearchFiles, abi.SearchCount:
	default:
		return abi.Errorf(abi.InvalidArgument, "the output mode %s is unknown; use content, files or count", abi.Quote(req.Mode))
	}
	return nil
}

// splitGlob splits a file glob into the glob itself and whether it leaves
// out the files it matches (a leading !, as ripgrep's --glob reads it).
func splitGlob(glob string) (g string, exclude bool) {
	if rest, ok := strings.CutPrefix(glob, "!"); ok {
		return rest, true
	}
	return glob, false
}

// nameGlob reports whether glob is matched against file names (no slash)
// and can be given to rg as a file type: it must not start a type
// directive ("include:") nor hold a colon.
func nameGlob(glob string) bool {
	return glob != "" && !strings.ContainsAny(glob, "/:")
}

// maxColumns is the length from which rg leaves a matching line out and
// prints a note in its place (--max-columns): rg holds a file's matching
// lines in memory until it prints them, so each costs it this much at
// most, times perFile lines.
const maxColumns = abi.LongLineBytes

// argv builds rg's arguments for req over the root-relative path rel,
// taking at most perFile matching lines of a file. rg reads no ignore file
// of the tree (--no-ignore: no .gitignore, .ignore, .rgignore,
// .git/info/exclude, global or parent file); ignoreFile, when not empty,
// is the one the host wrote (leftOut). Every element is built here:
// nothing from the request becomes a flag.
func (s *server) argv(req *abi.SearchRequest, rel, ignoreFile string, perFile int) []string {
	a := []string{"--no-config", "--no-follow", "--hidden", "--no-ignore", "--no-messages", "--iglob=!.git"}
	if ignoreFile != "" {
		a = append(a, "--ignore-file="+ignoreFile)
	}
	for _, g := range s.excludes {
		a = append(a, "--iglob=!"+strings.TrimSuffix(g, "/"))
	}
	for _, g := range req.SkipDirs {
		a = append(a, "--glob=!"+g+"/") // the slash: folders only
	}
	// Every mode reads rg's matching lines, PATH\0LINE:COLUMN:TEXT, which
	// the host checks against its own read; rg prints no context (the host
	// reads it), and in files mode one line per file is evidence enough.
	a = append(a, "--null", "--with-filename", "--no-heading", "--line-number", "--column", "--color=never",
		"--max-count="+strconv.Itoa(perFile), "--max-columns="+strconv.Itoa(maxColumns))
	if req.Literal {
		a = append(a, "--fixed-strings")
	}
	if crlf(req) {
		a = append(a, "--crlf")
	}
	if req.IgnoreCase {
		a = append(a, "--ignore-case")
	} else {
		a = append(a, "--case-sensitive")
	}
	if g, exclude := splitGlob(req.Glob); nameGlob(g) {
		a = append(a, "--type-add=juju:"+g, "--type=juju")
		if exclude {
			a[len(a)-1] = "--type-not=juju"
		}
	}
	a = append(a, "--regexp="+req.Pattern, "--", rel)
	return a
}
