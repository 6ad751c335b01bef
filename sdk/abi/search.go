package abi

// Search host function (capability fs.read): a content search of the
// workspace run by ripgrep on the host, with an argument list the host
// builds from this structured request (the plugin never chooses flags),
// or by the host itself where rg is not installed.
const FnSearch = "juju_search" // SearchRequest → SearchResult; fs.read

// Search output modes.
const (
	SearchContent = "content" // matching lines, with context
	SearchFiles   = "files"   // the files that match
	SearchCount   = "count"   // matching lines per file
)

// SearchRequest asks for one search. Pattern is a regular expression (RE2
// syntax), or a literal string when Literal is set; it never holds a line
// break.
type SearchRequest struct {
	Pattern    string `json:"pattern"`
	Literal    bool   `json:"literal,omitempty"`
	IgnoreCase bool   `json:"ignoreCase,omitempty"`
	// Path is the folder (or file) to search: relative to the first root,
	// or absolute inside a root. Empty means the first root.
	Path string `json:"path,omitempty"`
	// Glob keeps only files whose path matches: a glob without a slash is
	// matched against file names at any depth, one with a slash against the
	// path relative to Path.
	Glob string `json:"glob,omitempty"`
	// SkipDirs names folders the search does not enter, at any depth
	// below Path: each a glob of one path element ("testdata", ".*"); at
	// most MaxSkipDirs.
	SkipDirs     []string `json:"skipDirs,omitempty"`
	Mode         string   `json:"mode,omitempty"` // SearchContent (default), SearchFiles, SearchCount
	ContextLines int      `json:"contextLines,omitempty"`
	// MaxResults bounds the matching lines (content) or the files (files,
	// count) returned; 0 means the host's cap.
	MaxResults int   `json:"maxResults,omitempty"`
	TimeoutMs  int64 `json:"timeoutMs,omitempty"` // 0: the host's default
}

// MaxSkipDirs bounds SearchRequest.SkipDirs.
const MaxSkipDirs = 32

// MaxSearchPattern bounds SearchRequest.Pattern, in bytes: an
// alternation of a thousand identifiers fits, and the pattern stays well
// inside the 128 KiB that one argument of ripgrep's can be (past it the
// search could not start at all).
const MaxSearchPattern = 32 << 10

// MaxSearchGlob bounds SearchRequest.Glob and each of SkipDirs, in bytes:
// Linux's PATH_MAX, as no path is longer than that.
const MaxSearchGlob = 4096

// SearchResult is what a search found. Unavailable said, from hosts
// before juju searched by itself, that no search program was installed;
// Hidden and Unnamed counted files with matches that the policy withheld
// or that no tool could name. juju sets none of them any more: a count of
// withheld files with matches told a pattern's author what those files
// hold.
type SearchResult struct {
	Status
	Unavailable bool         `json:"unavailable,omitempty"`
	Hidden      int          `json:"hidden,omitempty"`
	Unnamed     int          `json:"unnamed,omitempty"`
	Engine      string       `json:"engine,omitempty"` // "ripgrep", or "juju" (the host's own search)
	Files       []SearchFile `json:"files"`
	// Matches counts the matching lines returned (content) or found in the
	// files returned (count).
	Matches int `json:"matches"`
	// Truncated says the search stopped at MaxResults: more matches exist.
	Truncated bool `json:"truncated,omitempty"`
	// Partial says the search ran out of time: what is here is what was
	// found until then.
	Partial bool `json:"partial,omitempty"`
	// Changed said files changed while they were searched (rewritten,
	// removed, or a folder on their path swapped): the lines the host could
	// not confirm were left out. juju no longer sets it: a line the search
	// read through a folder swapped for a link, and names only when it
	// matches, would have it tell whether a file outside the roots matched.
	Changed bool `json:"changed,omitempty"`
	// LongLines are matching lines too long for the search to return
	// (LongLineBytes or more, such as a minified bundle's), at most
	// MaxLongLines of them: the search found them, and read_file reads them
	// by byte offset.
	LongLines []SearchLine `json:"longLines,omitempty"`
	// Aborted says ripgrep stopped before the end (its memory cap: a huge
	// line, or one with millions of matches): files it had not searched
	// yet are missing.
	Aborted bool `json:"aborted,omitempty"`
}

// MaxLongLines bounds SearchResult.LongLines.
const MaxLongLines = 20

// LongLineBytes is the length from which a matching line is not returned
// but named in SearchResult.LongLines: results show 1,000 bytes of a line
// anyway, and ripgrep holds each file's matching lines in memory
// before it prints them, so this bounds what one file's lines cost it.
const LongLineBytes = 64 << 10

// MaxFileCount bounds the matching lines counted in one file (count
// mode): a file that holds more is given as MaxFileCount and the result
// is truncated.
const MaxFileCount = 10_000

// SearchLine names one line of a file.
type SearchLine struct {
	Path string `json:"path" desc:"The file, relative to the first root."`
	Line int    `json:"line" desc:"1-based line number."`
}

// SearchFile is one file with matches, by display path. Matches is empty
// in files mode; Count is set in count mode. search_code returns these.
type SearchFile struct {
	Path    string        `json:"path" desc:"The file, relative to the first root."`
	Count   int           `json:"count,omitempty" desc:"Matching lines in the file (count mode)."`
	Matches []SearchMatch `json:"matches,omitempty" desc:"The matching lines (content mode)."`
}

// SearchMatch is one matching line. Column is the 1-based position of the
// first match on the line, counted in Unicode code points. Before and After
// are the context lines around it (lines that match too included).
type SearchMatch struct {
	Line   int      `json:"line" desc:"1-based line number."`
	Column int      `json:"column" desc:"1-based column of the first match on the line, in Unicode code points."`
	Text   string   `json:"text" desc:"The line, without its line break: its first 1000 bytes, or, when the match lies further in, 1000 bytes from a little before it (the text then says how many bytes were cut before)."`
	Before []string `json:"before,omitempty" desc:"Context lines just before it."`
	After  []string `json:"after,omitempty" desc:"Context lines just after it."`
}
