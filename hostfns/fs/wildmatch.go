package fs

import "strings"

// wildmatch is a port of git's wildmatch.c (the matcher behind .gitignore),
// kept close to the original so that its corner cases are git's.
//
// With pathname set (git's WM_PATHNAME), "*", "?" and "[…]" never match a
// slash, "**/" matches zero or more folders, a trailing "/**" everything
// below, and "/**/" zero or more folders in between; any other run of stars
// is a single star. Without it, "*" matches slashes too. Classes support
// "!" and "^" negation, ranges and the POSIX [:name:] classes; "\" quotes the
// next byte. Matching is byte-wise and case-sensitive, as git's default.
// Neither the pattern nor the text may hold a NUL byte (they are C strings
// in git; file names cannot hold one).
//
// One thing is added: a step budget. Patterns such as "**/**/**/a*b*c" are
// exponential on deep paths, and a .gitignore comes with the (untrusted)
// repository, so a match that takes more than maxWildSteps steps is
// abandoned as no match.

// maxWildSteps bounds the work of one match; real patterns use a few dozen.
const maxWildSteps = 10000

// maxEntrySteps bounds the matching of one name against every rule that
// applies to it: 45,000 rules each using their whole budget made a folder
// of 200 entries take a quarter of an hour. Past it the name counts as not
// ignored (listed rather than hidden: .gitignore is no security boundary).
const maxEntrySteps = 200000

const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

// wildmatch matches text against pattern within maxWildSteps steps and
// what is left of budget, which it spends.
func wildmatch(pattern, text string, pathname bool, budget *int) bool {
	steps := maxWildSteps - min(maxWildSteps, *budget)
	start := steps
	m := dowild(pattern, text, pathname, &steps) == wmMatch
	*budget -= min(steps, maxWildSteps+1) - start
	return m
}

// at returns s[i], or 0 past the end (C strings end in NUL).
func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isGlobSpecial(c byte) bool { return c == '*' || c == '?' || c == '[' || c == '\\' }

func dowild(p, t string, pathname bool, steps *int) int {
	if *steps++; *steps > maxWildSteps {
		return wmAbortAll
	}
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pCh := p[pi]
		tCh := at(t, ti)
		if tCh == 0 && pCh != '*' {
			return wmAbortAll
		}
		switch pCh {
		case '\\':
			pi++
			if tCh != at(p, pi) {
				return wmNoMatch
			}
		case '?':
			if pathname && tCh == '/' {
				return wmNoMatch
			}
		case '*':
			if r, done := star(p, t, &pi, &ti, pathname, steps); done {
				return r
			}
		case '[':
			if r := class(p, &pi, tCh, pathname); r != wmMatch {
				return r
			}
		default:
			if tCh != pCh {
				return wmNoMatch
			}
		}
	}
	if ti < len(t) {
		return wmNoMatch
	}
	return wmMatch
}

// star handles a run of stars at p[*pi]. It returns done=false when the
// main loop should go on (after "*/" consumed a folder name), else the result.
func star(p, t string, pi, ti *int, pathname bool, steps *int) (int, bool) {
	matchSlash := false
	*pi++
	if at(p, *pi) == '*' {
		prev := *pi - 2
		for *pi++; at(p, *pi) == '*'; *pi++ {
		}
		next := at(p, *pi)
		if (prev < 0 || p[prev] == '/') && (next == 0 || next == '/' || (next == '\\' && at(p, *pi+1) == '/')) {
			// "**/" may match nothing: try the rest of the pattern here.
			if next == '/' && dowild(p[*pi+1:], t[*ti:], pathname, steps) == wmMatch {
				return wmMatch, true
			}
			matchSlash = true
		}
	} else {
		matchSlash = !pathname
	}
	if *pi >= len(p) {
		// A trailing "**" matches everything, a trailing "*" only a last name.
		if !matchSlash && strings.IndexByte(t[*ti:], '/') >= 0 {
			return wmNoMatch, true
		}
		return wmMatch, true
	}
	if !matchSlash && p[*pi] == '/' {
		// One star then a slash matches the rest of one folder name.
		i := strings.IndexByte(t[*ti:], '/')
		if i < 0 {
			return wmNoMatch, true
		}
		*ti += i
		return 0, false
	}
	for tCh := at(t, *ti); tCh != 0; tCh = at(t, *ti) {
		if c := p[*pi]; !isGlobSpecial(c) {
			// Skip ahead to the next occurrence of the literal that follows.
			for tCh = at(t, *ti); tCh != 0 && (matchSlash || tCh != '/') && tCh != c; tCh = at(t, *ti) {
				*ti++
			}
			if tCh != c {
				return wmNoMatch, true
			}
		}
		m := dowild(p[*pi:], t[*ti:], pathname, steps)
		if m != wmNoMatch {
			if !matchSlash || m != wmAbortToStarStar {
				return m, true
			}
		} else if !matchSlash && tCh == '/' {
			return wmAbortToStarStar, true
		}
		*ti++
	}
	return wmAbortAll, true
}

// class matches the bracket expression at p[*pi] against tCh; it leaves *pi
// on the closing bracket and returns wmMatch when the main loop goes on.
func class(p string, pi *int, tCh byte, pathname bool) int {
	*pi++
	pCh := at(p, *pi)
	if pCh == '^' {
		pCh = '!'
	}
	negated := pCh == '!'
	if negated {
		*pi++
		pCh = at(p, *pi)
	}
	var prevCh byte
	matched := false
	for {
		if pCh == 0 {
			return wmAbortAll
		}
		switch {
		case pCh == '\\':
			*pi++
			pCh = at(p, *pi)
			if pCh == 0 {
				return wmAbortAll
			}
			if tCh == pCh {
				matched = true
			}
		case pCh == '-' && prevCh != 0 && at(p, *pi+1) != 0 && p[*pi+1] != ']':
			*pi++
			pCh = p[*pi]
			if pCh == '\\' {
				*pi++
				pCh = at(p, *pi)
				if pCh == 0 {
					return wmAbortAll
				}
			}
			if tCh <= pCh && tCh >= prevCh {
				matched = true
			}
			pCh = 0 // so that prevCh becomes 0: no range may start here
		case pCh == '[' && at(p, *pi+1) == ':':
			*pi += 2
			s := *pi
			for pCh = at(p, *pi); pCh != 0 && pCh != ']'; pCh = at(p, *pi) {
				*pi++
			}
			if pCh == 0 {
				return wmAbortAll
			}
			n := *pi - s - 1
			if n < 0 || p[*pi-1] != ':' {
				// No ":]": an ordinary "[" in the set.
				*pi = s - 2
				pCh = '['
				if tCh == pCh {
					matched = true
				}
				break
			}
			in, known := posixClass(p[s:s+n], tCh)
			if !known {
				return wmAbortAll
			}
			if in {
				matched = true
			}
			pCh = 0
		default:
			if tCh == pCh {
				matched = true
			}
		}
		prevCh = pCh
		*pi++
		if pCh = at(p, *pi); pCh == ']' {
			break
		}
	}
	if matched == negated || (pathname && tCh == '/') {
		return wmNoMatch
	}
	return wmMatch
}

// posixClass reports whether c is in the named class (C locale), and whether
// the name is known.
func posixClass(name string, c byte) (in, known bool) {
	upper := c >= 'A' && c <= 'Z'
	lower := c >= 'a' && c <= 'z'
	digit := c >= '0' && c <= '9'
	alpha := upper || lower
	graph := c > 0x20 && c < 0x7f
	switch name {
	case "alnum":
		return alpha || digit, true
	case "alpha":
		return alpha, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return graph, true
	case "lower":
		return lower, true
	case "print":
		return graph || c == ' ', true
	case "punct":
		return graph && !alpha && !digit, true
	case "space":
		return c == ' ' || (c >= '\t' && c <= '\r'), true
	case "upper":
		return upper, true
	case "xdigit":
		return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'), true
	}
	return false, false
}
