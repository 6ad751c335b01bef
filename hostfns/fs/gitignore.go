package fs

import (
	"bytes"
	"strings"
)

// This file is a compact .gitignore matcher, faithful to git's dir.c:
// comments, blank lines, trailing spaces (unless escaped), "!" negation,
// a trailing "/" for folders only, patterns with a slash anchored to the
// folder of their file, patterns without one matched against the name at
// any depth, "**" as in wildmatch.go, and precedence (the last matching line
// wins; deeper files override shallower ones, which override
// .git/info/exclude). A path inside an ignored folder is ignored too: the
// walk never enters such a folder, so a negation cannot re-include it, as in
// git.

// ignoreRule is one pattern line.
type ignoreRule struct {
	pattern  string // without "!" and the trailing "/"
	literal  int    // length of the leading part without wildcards
	negate   bool
	dirOnly  bool
	nameOnly bool // no slash: matched against the last name at any depth
	endsWith bool // "*" followed by a literal: a suffix check
}

// ignoreFile is the rules of one file; base is its folder relative to the
// root ("" for the root itself).
type ignoreFile struct {
	base  string
	rules []ignoreRule
}

// ignoreStack holds the files that apply to a folder, lowest precedence
// first. It is never modified in place: push copies.
type ignoreStack []*ignoreFile

func (s ignoreStack) push(f *ignoreFile) ignoreStack {
	if f == nil || len(f.rules) == 0 {
		return s
	}
	out := make(ignoreStack, len(s), len(s)+1)
	copy(out, s)
	return append(out, f)
}

// parseIgnore reads the rules of a .gitignore whose folder is base.
func parseIgnore(base string, data []byte) *ignoreFile {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	f := &ignoreFile{base: base}
	for len(data) > 0 {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
			line = bytes.TrimSuffix(line, []byte("\r"))
		} else {
			line, data = data, nil
		}
		if i := bytes.IndexByte(line, 0); i >= 0 {
			line = line[:i] // git reads lines as C strings
		}
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if r, ok := parseRule(trimTrailingSpaces(string(line))); ok {
			f.rules = append(f.rules, r)
		}
	}
	return f
}

// trimTrailingSpaces drops trailing spaces that are not escaped.
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

func parseRule(p string) (ignoreRule, bool) {
	var r ignoreRule
	if strings.HasPrefix(p, "!") {
		r.negate = true
		p = p[1:]
	}
	if strings.HasSuffix(p, "/") {
		r.dirOnly = true
		p = p[:len(p)-1]
	}
	if p == "" {
		return r, false
	}
	r.nameOnly = !strings.Contains(p, "/")
	r.literal = len(p)
	for i := 0; i < len(p); i++ {
		if isGlobSpecial(p[i]) {
			r.literal = i
			break
		}
	}
	r.endsWith = p[0] == '*' && !strings.ContainsAny(p[1:], `*?[\`)
	r.pattern = p
	return r, true
}

// ignored reports whether the root-relative path rel, an entry of a folder
// whose rules are s, is ignored.
func (s ignoreStack) ignored(rel string, isDir bool) bool {
	name := rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		name = rel[i+1:]
	}
	budget := maxEntrySteps
	for i := len(s) - 1; i >= 0; i-- {
		f := s[i]
		for j := len(f.rules) - 1; j >= 0; j-- {
			if budget <= 0 {
				return false
			}
			r := &f.rules[j]
			if r.dirOnly && !isDir {
				continue
			}
			budget-- // a rule tried, however cheaply
			var m bool
			if r.nameOnly {
				m = r.matchName(name, &budget)
			} else {
				m = r.matchPath(rel, f.base, &budget)
			}
			if m {
				return !r.negate
			}
		}
	}
	return false
}

// matchName is git's match_basename.
func (r *ignoreRule) matchName(name string, budget *int) bool {
	switch {
	case r.literal == len(r.pattern):
		return name == r.pattern
	case r.endsWith:
		return strings.HasSuffix(name, r.pattern[1:])
	}
	return wildmatch(r.pattern, name, false, budget)
}

// matchPath is git's match_pathname: the pattern is relative to base.
func (r *ignoreRule) matchPath(rel, base string, budget *int) bool {
	pattern, literal := r.pattern, r.literal
	if pattern[0] == '/' {
		pattern, literal = pattern[1:], literal-1
	}
	name := rel
	if base != "" {
		if len(rel) <= len(base) || rel[len(base)] != '/' || rel[:len(base)] != base {
			return false
		}
		name = rel[len(base)+1:]
	}
	if literal > 0 {
		if literal > len(name) || pattern[:literal] != name[:literal] {
			return false
		}
		pattern, name = pattern[literal:], name[literal:]
		if pattern == "" && name == "" {
			return true
		}
	}
	return wildmatch(pattern, name, true, budget)
}
