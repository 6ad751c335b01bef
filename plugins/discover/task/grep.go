package task

import (
	"bufio"
	"bytes"
	"path"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/jujutools/juju/plugins/internal/lazyre"
)

// SkipDirs are the folders Grep never enters: those the host's walk skips
// for the overview (dependency and tool folders), and .git.
var SkipDirs = []string{".git", "node_modules", "vendor", "target", ".venv", "venv", "__pycache__", ".tox", ".nox", ".gradle"}

// AnchoredGroup splits a pattern of the form ^(group) into its group, for
// a search program that finds the group's lines faster unanchored: ripgrep
// cannot use its literal prefilter on a line-anchored alternation, and so
// searched Go's tree for the go discoverer's pattern in about twice the
// time. A line matches re exactly when the group's leftmost match on it
// starts at column 1, so the caller keeps those hits and no others. ok is
// false for any other shape, ^(a)|b for one, whose anchor binds to its
// first alternative only.
func AnchoredGroup(re string) (group string, ok bool) {
	group, ok = strings.CutPrefix(re, "^")
	if !ok {
		return "", false
	}
	p, err := syntax.Parse(group, syntax.Perl)
	if err != nil || p.Op != syntax.OpCapture {
		return "", false
	}
	return group, true
}

// Bounds of WalkGrep.
const (
	maxGrepDirs  = 5000
	maxGrepFiles = 20000
	maxGrepHits  = 5000
)

// WalkGrep is Grep done with List and ReadFile alone: a breadth-first walk
// of dir (SkipDirs and the folders skip names left out) reading every file
// whose name matches the glob name. It is the search of DirFS, which the
// discoverers' tests run natively.
func WalkGrep(fsys FS, dir, name string, re *regexp.Regexp, skip []string) ([]Hit, error) {
	var hits []Hit
	queue := []string{dir}
	dirs, files := 0, 0
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if dirs++; dirs > maxGrepDirs {
			return hits, ErrIncomplete
		}
		for _, e := range fsys.List(cur) {
			p := path.Join(cur, strings.TrimSuffix(e, "/"))
			if d, ok := strings.CutSuffix(e, "/"); ok {
				if !skipped(d, skip) {
					queue = append(queue, p)
				}
				continue
			}
			if ok, _ := path.Match(name, e); !ok {
				continue
			}
			if files++; files > maxGrepFiles {
				return hits, ErrIncomplete
			}
			data, err := fsys.ReadFile(p)
			if err != nil {
				continue
			}
			hits = append(hits, grepData(p, data, re)...)
			if len(hits) > maxGrepHits {
				return hits[:maxGrepHits], ErrIncomplete
			}
		}
	}
	return hits, nil
}

// skipped says Grep does not enter the folder named dir.
func skipped(dir string, skip []string) bool {
	if slices.Contains(SkipDirs, dir) {
		return true
	}
	for _, g := range skip {
		if ok, _ := path.Match(g, dir); ok {
			return true
		}
	}
	return false
}

// grepData returns the lines of data that match re.
func grepData(file string, data []byte, re *regexp.Regexp) []Hit {
	var hits []Hit
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if line := strings.TrimSuffix(sc.Text(), "\r"); re.MatchString(line) {
			hits = append(hits, Hit{Path: file, Line: n, Text: line})
		}
	}
	return hits
}

// Regexp returns a function that compiles expr the first time it is
// called and returns that one expression ever after (package lazyre).
func Regexp(expr string) func() *regexp.Regexp {
	return lazyre.New(expr).Get
}
