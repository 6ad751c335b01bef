package search

import (
	"bytes"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// Bounds of the plugin's own search.
const (
	fallbackMaxFiles = 100_000
	fallbackMaxBytes = 16 << 20 // read at most this much of one file
	maxLineBytes     = 1000
)

// fallback searches with the fs host functions when the host has no
// ripgrep: it walks the path (glob, which applies .gitignore and the
// policy), reads each file and matches it line by line. It stops at the
// deadline and marks the result partial.
func fallback(req abi.SearchRequest, re *regexp.Regexp, deadline time.Time) (*abi.SearchResult, error) {
	res := &abi.SearchResult{Engine: "juju", Files: []abi.SearchFile{}}
	paths, err := candidates(req)
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		if time.Now().After(deadline) {
			res.Partial = true
			break
		}
		_, body, err := juju.ReadFile(abi.ReadRequest{Path: p, MaxBytes: fallbackMaxBytes})
		if err != nil {
			if juju.IsCode(err, abi.SecretDenied) || juju.IsCode(err, abi.PathDenied) {
				res.Hidden++
			}
			continue // a file that vanished or cannot be read is skipped, as rg does
		}
		if len(body) == 0 || !re.Match(body) { // binary files come back empty
			continue
		}
		if !scan(req, re, p, body, res) {
			res.Truncated = true
			break
		}
	}
	return res, nil
}

// candidates lists the files to search: the one file named, or every file
// of the folder that the glob keeps.
func candidates(req abi.SearchRequest) ([]string, error) {
	path := req.Path
	if path == "" {
		path = "."
	}
	st, err := juju.Stat(abi.StatRequest{Path: path})
	if err != nil {
		return nil, err
	}
	if st.Type == abi.TypeFile {
		return []string{st.Path}, nil
	}
	pattern := req.Glob
	if pattern != "" && !strings.Contains(pattern, "/") {
		pattern = "**/" + pattern
	}
	g, err := juju.Glob(abi.GlobRequest{Pattern: pattern, Path: path, Limit: fallbackMaxFiles})
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(g.Entries))
	for _, e := range g.Entries {
		if e.Type == abi.TypeFile { // links are not followed, as with ripgrep
			out = append(out, e.Path)
		}
	}
	return out, nil
}

// scan adds one file's matches to res. It returns false when the result
// cap is reached.
func scan(req abi.SearchRequest, re *regexp.Regexp, path string, body []byte, res *abi.SearchResult) bool {
	max := req.MaxResults
	switch req.Mode {
	case abi.SearchFiles:
		if len(res.Files) >= max {
			return false
		}
		res.Files = append(res.Files, abi.SearchFile{Path: path})
		return true
	case abi.SearchCount:
		if len(res.Files) >= max {
			return false
		}
		n := 0
		eachLine(body, func(_ int, l []byte) bool {
			if re.Match(l) {
				n++
			}
			return true
		})
		res.Files = append(res.Files, abi.SearchFile{Path: path, Count: n})
		res.Matches += n
		return true
	}
	var lines [][]byte
	eachLine(body, func(_ int, l []byte) bool { lines = append(lines, l); return true })
	f := abi.SearchFile{Path: path}
	full := true
	for i, l := range lines {
		loc := re.FindIndex(l)
		if loc == nil {
			continue
		}
		if res.Matches >= max {
			full = false
			break
		}
		m := abi.SearchMatch{Line: i + 1, Column: utf8.RuneCount(l[:loc[0]]) + 1, Text: clipLine(l)}
		for j := max0(i - req.ContextLines); j < i; j++ {
			m.Before = append(m.Before, clipLine(lines[j]))
		}
		for j := i + 1; j < len(lines) && j <= i+req.ContextLines; j++ {
			m.After = append(m.After, clipLine(lines[j]))
		}
		f.Matches = append(f.Matches, m)
		res.Matches++
	}
	if len(f.Matches) > 0 {
		res.Files = append(res.Files, f)
	}
	return full
}

// eachLine calls f with every line of b, without its line break.
func eachLine(b []byte, f func(n int, line []byte) bool) {
	for n := 1; len(b) > 0; n++ {
		i := bytes.IndexByte(b, '\n')
		l := b
		if i >= 0 {
			l, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if !f(n, bytes.TrimSuffix(l, []byte("\r"))) {
			return
		}
	}
}

func max0(n int) int { return max(n, 0) }

// clipLine returns a line as valid UTF-8, cut past maxLineBytes as the
// host cuts ripgrep's lines.
func clipLine(l []byte) string {
	s := strings.ToValidUTF8(string(l), "\uFFFD")
	if len(s) <= maxLineBytes {
		return s
	}
	cut := maxLineBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + " …[line cut]"
}
