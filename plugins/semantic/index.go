package semantic

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// Bounds of the heuristic index's work per call.
const (
	maxCandidates = 200     // files read to look for definitions
	maxFileBytes  = 2 << 20 // bytes read of one file
)

// sourceGlob matches the files of every language juju knows.
var sourceGlob = func() string {
	var exts []string
	for _, l := range abi.Languages {
		for _, e := range l.Extensions {
			exts = append(exts, strings.TrimPrefix(e, "."))
		}
	}
	return "*.{" + strings.Join(exts, ",") + "}"
}()

// readSource reads a source file through the fs host function.
func readSource(path string) (display, body string, err error) {
	res, b, err := juju.ReadFile(abi.ReadRequest{Path: path, MaxBytes: maxFileBytes})
	if err != nil {
		return "", "", err
	}
	if res.Binary {
		return res.Path, "", nil
	}
	return res.Path, strings.TrimPrefix(string(b), bom), nil
}

// bom is the UTF-8 byte-order mark. read_file does not show one opening a
// file, so line 1's columns are counted after it, and its definitions are
// found at the line's start.
const bom = "\ufeff"

// fileSymbols is the heuristic index of one file.
func fileSymbols(path string) ([]defn, abi.Language, error) {
	lang, ok := abi.LanguageOf(path)
	if !ok {
		return nil, lang, juju.Errorf(abi.InvalidArgument, "%s is not a source file of a language juju knows; pass a source file", juju.PathText(path))
	}
	display, body, err := readSource(path)
	if err != nil {
		return nil, lang, err
	}
	return scanFile(display, body, lang), lang, nil
}

// candidates lists the source files under scope whose text holds name
// (ignoring case when fuzzy): ripgrep on the host, or, without it, every
// source file up to the bound.
func candidates(scope, name string, fuzzy bool) (files []string, cut bool, err error) {
	res, err := juju.Search(abi.SearchRequest{Pattern: regexp.QuoteMeta(name), Literal: false, IgnoreCase: fuzzy,
		Path: scope, Glob: sourceGlob, Mode: abi.SearchFiles, MaxResults: maxCandidates})
	if err != nil {
		return nil, false, err
	}
	if !res.Unavailable {
		for _, f := range res.Files {
			files = append(files, f.Path)
		}
		return files, res.Truncated, nil
	}
	g, err := juju.Glob(abi.GlobRequest{Pattern: "**/" + sourceGlob, Path: scope, Limit: 5 * maxCandidates})
	if err != nil {
		return nil, false, err
	}
	for _, e := range g.Entries {
		files = append(files, e.Path)
	}
	return files, g.Truncated, nil
}

// heuristicFind finds the definitions matching a name path under scope (a
// folder, or one file).
func heuristicFind(scope string, containers []string, name string, fuzzy bool, max int) (out []Symbol, cut bool, err error) {
	var files []string
	if st, err := juju.Stat(abi.StatRequest{Path: scope}); err != nil {
		return nil, false, err
	} else if st.Type != abi.TypeDir {
		files = []string{scope}
	} else if files, cut, err = candidates(scope, name, fuzzy); err != nil {
		return nil, false, err
	}
	read := 0
	for _, f := range files {
		if _, ok := abi.LanguageOf(f); !ok {
			continue
		}
		if read++; read > maxCandidates {
			cut = true
			break
		}
		defs, _, err := fileSymbols(f)
		if err != nil {
			continue // unreadable (gone, secret): skipped
		}
		for _, d := range defs {
			if matchNamePath(d.NamePath, "", containers, name, fuzzy) {
				out = append(out, d.Symbol)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Name == name) != (b.Name == name) {
			return a.Name == name // exact names first
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	if len(out) > max {
		out, cut = out[:max], true
	}
	return out, cut, nil
}

// identifierAt returns the identifier under a 1-based code-point column of
// a line, or "".
func identifierAt(line string, column int) string {
	runes := []rune(line)
	i := column - 1
	if i < 0 || i >= len(runes) || !isIdent(runes[i]) {
		if i-1 >= 0 && i-1 < len(runes) && isIdent(runes[i-1]) {
			i-- // just past the identifier's end
		} else {
			return ""
		}
	}
	start, end := i, i
	for start > 0 && isIdent(runes[start-1]) {
		start--
	}
	for end < len(runes) && isIdent(runes[end]) {
		end++
	}
	return string(runes[start:end])
}

// isIdent reports whether r may be part of an identifier: a letter,
// mark or digit of any script (名前, Größe), _ or $.
func isIdent(r rune) bool {
	return r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
		r > 0x7f && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r))
}

// lineOf reads one line of a file.
func lineOf(path string, line int) (string, error) {
	rr, b, err := juju.ReadFile(abi.ReadRequest{Path: path, Line: line, Lines: 1})
	if err != nil {
		return "", err
	}
	if line > rr.TotalLines && !rr.Binary {
		// As the language servers' positions are refused (hostfns/lsp).
		lines := "1 line"
		if rr.TotalLines != 1 {
			lines = fmt.Sprintf("%d lines", rr.TotalLines)
		}
		return "", juju.Errorf(abi.InvalidArgument, "line %d is past the end of %s (%s); count lines from 1 as read_file numbers them", line, juju.PathText(rr.Path), lines)
	}
	l := strings.TrimRight(string(b), "\r\n")
	if line == 1 {
		l = strings.TrimPrefix(l, bom)
	}
	return l, nil
}
