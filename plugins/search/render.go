package search

import (
	"fmt"
	"slices"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// maxTextBytes bounds the text of one answer and, apart, its structured
// content (clients accept about 25,000 tokens; SPEC §4: each under
// 100,000 bytes): past it, the remaining matches are left out and the cut
// is said.
const maxTextBytes = 80_000

// render turns a search result into the text and structured content of
// search_code. Both hold the same matches, cut at the same place.
func render(in SearchCodeArgs, res *abi.SearchResult) *juju.Result {
	out := SearchCodeResult{
		Pattern: in.Pattern, Path: in.Path, Mode: in.OutputMode, Engine: res.Engine,
		Files: []abi.SearchFile{}, Truncated: res.Truncated, Partial: res.Partial || res.Changed || res.Aborted,
		LongLines: res.LongLines, Aborted: res.Aborted,
	}
	matches := 0
	if in.OutputMode != abi.SearchFiles {
		out.Matches = &matches
	}
	var b strings.Builder
	structured := 0
	cut := false
	for _, f := range res.Files {
		sf := abi.SearchFile{Path: f.Path, Count: f.Count}
		switch in.OutputMode {
		case abi.SearchFiles, abi.SearchCount:
			line := juju.PathText(f.Path) + "\n"
			if in.OutputMode == abi.SearchCount {
				line = fmt.Sprintf("%s:%d\n", juju.PathText(f.Path), f.Count)
				if f.Count >= abi.MaxFileCount {
					line = fmt.Sprintf("%s:%d or more\n", juju.PathText(f.Path), f.Count)
				}
			}
			n := fileJSONSize(f.Path)
			if b.Len()+len(line) > maxTextBytes || structured+n > maxTextBytes {
				cut = true
				break
			}
			b.WriteString(line)
			structured += n
			matches += f.Count
		default:
			structured += fileJSONSize(f.Path)
			w := matchWriter{b: &b, path: juju.PathText(f.Path), context: in.ContextLines}
			for _, m := range f.Matches {
				n := matchJSONSize(m)
				if b.Len()+w.size(m) > maxTextBytes || structured+n > maxTextBytes {
					cut = true
					break
				}
				w.write(m)
				structured += n
				sf.Matches = append(sf.Matches, m)
			}
			w.end()
			matches += len(sf.Matches)
		}
		if cut && len(sf.Matches) == 0 {
			break
		}
		out.Files = append(out.Files, sf)
		if cut {
			break
		}
	}
	if cut {
		out.Truncated = true
	}
	b.WriteString(summary(in, &out, res, cut))
	return juju.Text(b.String()).WithStructured(out)
}

// matchWriter writes one file's matches as grep does: path:line:column:text
// for a match, path-line-text for context, "--" between separate groups.
type matchWriter struct {
	b       *strings.Builder
	path    string // as the text shows it (juju.PathText)
	context int
	last    int // the last line number written
}

// size is at least the bytes write(m) adds.
func (w *matchWriter) size(m abi.SearchMatch) int {
	n := len(w.path) + len(m.Text) + 30
	for _, t := range m.Before {
		n += len(w.path) + len(t) + 12
	}
	for _, t := range m.After {
		n += len(w.path) + len(t) + 12
	}
	return n
}

func (w *matchWriter) write(m abi.SearchMatch) {
	first := m.Line - len(m.Before)
	if w.context > 0 && w.last > 0 && first > w.last+1 {
		w.b.WriteString("--\n")
	}
	for i, t := range m.Before {
		if n := first + i; n > w.last {
			fmt.Fprintf(w.b, "%s-%d-%s\n", w.path, n, t)
			w.last = n
		}
	}
	if m.Line > w.last {
		fmt.Fprintf(w.b, "%s:%d:%d:%s\n", w.path, m.Line, m.Column, m.Text)
		w.last = m.Line
	}
	for i, t := range m.After {
		if n := m.Line + 1 + i; n > w.last {
			fmt.Fprintf(w.b, "%s-%d-%s\n", w.path, n, t)
			w.last = n
		}
	}
}

// end closes a file's groups.
func (w *matchWriter) end() {
	if w.context > 0 && w.last > 0 {
		w.b.WriteString("--\n")
	}
}

// fileJSONSize and matchJSONSize are at least the sizes of a file and of a
// match in the structured content: each byte of a string counted as the
// six of \u00XX when JSON may escape it.
func fileJSONSize(path string) int {
	return len(`{"path":"","count":,"matches":[]},`) + 20 + abi.JSONLen(path)
}

func matchJSONSize(m abi.SearchMatch) int {
	n := len(`{"line":,"column":,"text":"","before":[],"after":[]},`) + 40 + abi.JSONLen(m.Text)
	for _, t := range m.Before {
		n += abi.JSONLen(t) + 3
	}
	for _, t := range m.After {
		n += abi.JSONLen(t) + 3
	}
	return n
}

// summary is the closing line: what was found, and what is missing.
func summary(in SearchCodeArgs, out *SearchCodeResult, res *abi.SearchResult, cut bool) string {
	var notes []string
	// capped: a file's count stopped at abi.MaxFileCount (count mode).
	capped := in.OutputMode == abi.SearchCount && slices.ContainsFunc(out.Files, func(f abi.SearchFile) bool { return f.Count >= abi.MaxFileCount })
	switch {
	case in.OutputMode == abi.SearchFiles:
		notes = append(notes, plural(len(out.Files), "file", "files"))
	case capped:
		notes = append(notes, fmt.Sprintf("%d or more matching lines in %s", *out.Matches, plural(len(out.Files), "file", "files")))
	default:
		notes = append(notes, plural(*out.Matches, "matching line", "matching lines")+" in "+plural(len(out.Files), "file", "files"))
	}
	switch {
	case cut:
		notes = append(notes, fmt.Sprintf("cut at about %d KB, the most one result holds: more matches exist; narrow path, fileGlob or the pattern%s, or search the files shown with read_file", maxTextBytes/1000, fewerContext(in)))
	case out.Truncated && (!capped || len(out.Files) >= in.MaxResults):
		notes = append(notes, fmt.Sprintf("stopped at maxResults (%d): more matches exist; narrow path, fileGlob or the pattern, or raise maxResults", in.MaxResults))
	}
	if capped {
		notes = append(notes, fmt.Sprintf("a file's count stops at %d matching lines (shown as \"%d or more\"); narrow the pattern or fileGlob for an exact count", abi.MaxFileCount, abi.MaxFileCount))
	}
	if res.Partial {
		notes = append(notes, fmt.Sprintf("PARTIAL: the search ran out of time (%d ms) before covering every file; narrow path or fileGlob, or raise timeoutMs", in.TimeoutMs))
	}
	if res.Changed {
		notes = append(notes, "PARTIAL: files changed while they were searched (rewritten, removed, or a folder swapped for a link); their lines juju could not confirm are left out; search again")
	}
	if res.Aborted {
		notes = append(notes, "PARTIAL: ripgrep stopped at its memory cap (a huge line, or one with millions of matches, such as a minified bundle or a log) before covering every file; narrow path or fileGlob to leave such files out, or make the pattern more distinctive")
	}
	if len(out.LongLines) > 0 {
		notes = append(notes, longLinesNote(out.LongLines))
	}
	if len(out.Files) == 0 && !out.Partial && len(out.LongLines) == 0 {
		return fmt.Sprintf("No matches for %q under %q. Check the pattern (regular expression unless literal: true; case is smart unless caseSensitive), or widen path and fileGlob.%s Files .gitignore excludes are searched only when path is one of them or inside one; secret and denied files and .git are never searched.\n", in.Pattern, in.Path, plainGlobNote(in.FileGlob)+listGlobNote(in.FileGlob))
	}
	return "[" + strings.Join(notes, "; ") + ".]\n"
}

// plainGlobNote, for a fileGlob without a wildcard or a slash (src,
// components), says that it names files, as a model writing a folder's
// name there means the folder and would read no matches as none in it.
func plainGlobNote(g string) string {
	if g == "" || strings.ContainsAny(g, "*?[{/!") {
		return ""
	}
	return fmt.Sprintf(" fileGlob %q holds no wildcard, so only files named exactly %s were searched: to search a folder, pass it as path, or fileGlob %q.", g, g, g+"/")
}

// listGlobNote, for a fileGlob holding a comma outside braces or a space
// (*.go,*.ts or *.go *.ts, as a model lists several patterns), says that
// it is one glob, whose comma or space is part of the names it matches,
// and how to write several: a model would read no matches as no such
// code. What it matches is left as it is (ripgrep's --glob reads it so).
func listGlobNote(g string) string {
	var parts []string
	depth, from := 0, 0
	for i := 0; i < len(g); i++ {
		switch c := g[i]; {
		case c == '\\':
			i++
		case c == '{':
			depth++
		case c == '}' && depth > 0:
			depth--
		case depth == 0 && (c == ',' || c == ' '):
			if p := g[from:i]; p != "" {
				parts = append(parts, p)
			}
			from = i + 1
		}
	}
	if from == 0 {
		return ""
	}
	if p := g[from:]; p != "" {
		parts = append(parts, p)
	}
	how := ""
	if len(parts) > 1 && !strings.ContainsAny(strings.Join(parts, ""), "{}\\!") {
		alt := "{" + strings.Join(parts, ",") + "}"
		var exts []string
		for _, p := range parts {
			if e, ok := strings.CutPrefix(p, "*."); ok && !strings.ContainsAny(e, "*?[/") {
				exts = append(exts, e)
			}
		}
		if len(exts) == len(parts) {
			alt = "*.{" + strings.Join(exts, ",") + "}"
		}
		how = fmt.Sprintf(": to search several patterns, write them as one with braces, fileGlob %q", alt)
	}
	return fmt.Sprintf(" fileGlob %q is a single glob, not a list: its commas outside braces and its spaces are part of the names it matches, so it likely matched no file%s.", g, how)
}

// longLinesNote names the matching lines too long to return.
func longLinesNote(lines []abi.SearchLine) string {
	var at []string
	for _, l := range lines {
		at = append(at, fmt.Sprintf("%s:%d", juju.PathText(l.Path), l.Line))
	}
	n := plural(len(lines), "matching line", "matching lines")
	if len(lines) >= abi.MaxLongLines {
		n = fmt.Sprintf("at least %d matching lines", len(lines))
	}
	return fmt.Sprintf("%s too long to show (%d KiB or more each, such as a minified bundle's): %s; read inside one with read_file and byteOffset, or narrow fileGlob to leave such files out",
		n, abi.LongLineBytes>>10, strings.Join(at, ", "))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// fewerContext suggests fewer context lines when there are any.
func fewerContext(in SearchCodeArgs) string {
	if in.ContextLines > 0 && in.OutputMode != abi.SearchFiles && in.OutputMode != abi.SearchCount {
		return " (or ask for fewer contextLines)"
	}
	return ""
}
