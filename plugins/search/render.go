package search

import (
	"fmt"
	"strings"

	"github.com/jujutools/juju/sdk/abi"
	"github.com/jujutools/juju/sdk/juju"
)

// maxTextBytes bounds the text of one answer (clients accept about 25,000
// tokens); past it, the remaining files are left out and the cut is said.
const maxTextBytes = 80 << 10

// render turns a search result into the text and structured content of
// search_code.
func render(in SearchCodeArgs, res *abi.SearchResult) *juju.Result {
	out := SearchCodeResult{
		Pattern: in.Pattern, Path: in.Path, Mode: in.OutputMode, Engine: res.Engine,
		Files: []abi.SearchFile{}, Truncated: res.Truncated, Partial: res.Partial || res.Changed, Hidden: res.Hidden,
	}
	var b strings.Builder
	for _, f := range res.Files {
		if b.Len() > maxTextBytes {
			out.Truncated = true
			break
		}
		sf := abi.SearchFile{Path: f.Path, Count: f.Count}
		switch in.OutputMode {
		case abi.SearchFiles:
			b.WriteString(f.Path + "\n")
		case abi.SearchCount:
			fmt.Fprintf(&b, "%s:%d\n", f.Path, f.Count)
			out.Matches += f.Count
		default:
			writeMatches(&b, f, in.ContextLines)
			sf.Matches = f.Matches
			out.Matches += len(f.Matches)
		}
		out.Files = append(out.Files, sf)
	}
	b.WriteString(summary(in, &out, res))
	return juju.Text(b.String()).WithStructured(out)
}

// writeMatches writes one file's matches as grep does: path:line:column:text
// for a match, path-line-text for context, "--" between separate groups.
func writeMatches(b *strings.Builder, f abi.SearchFile, context int) {
	last := 0 // the last line number written
	for _, m := range f.Matches {
		first := m.Line - len(m.Before)
		if context > 0 && last > 0 && first > last+1 {
			b.WriteString("--\n")
		}
		for i, t := range m.Before {
			if n := first + i; n > last {
				fmt.Fprintf(b, "%s-%d-%s\n", f.Path, n, t)
				last = n
			}
		}
		if m.Line > last {
			fmt.Fprintf(b, "%s:%d:%d:%s\n", f.Path, m.Line, m.Column, m.Text)
			last = m.Line
		}
		for i, t := range m.After {
			if n := m.Line + 1 + i; n > last {
				fmt.Fprintf(b, "%s-%d-%s\n", f.Path, n, t)
				last = n
			}
		}
	}
	if context > 0 {
		b.WriteString("--\n")
	}
}

// summary is the closing line: what was found, and what is missing.
func summary(in SearchCodeArgs, out *SearchCodeResult, res *abi.SearchResult) string {
	var notes []string
	switch in.OutputMode {
	case abi.SearchFiles:
		notes = append(notes, plural(len(out.Files), "file", "files"))
	default:
		notes = append(notes, plural(out.Matches, "matching line", "matching lines")+" in "+plural(len(out.Files), "file", "files"))
	}
	if out.Truncated {
		notes = append(notes, fmt.Sprintf("stopped at maxResults (%d) or the size cap: more matches exist; narrow path, fileGlob or the pattern, or raise maxResults", in.MaxResults))
	}
	if res.Partial {
		notes = append(notes, fmt.Sprintf("PARTIAL: the search ran out of time (%d ms) before covering every file; narrow path or fileGlob, or raise timeoutMs", in.TimeoutMs))
	}
	if res.Changed {
		notes = append(notes, "PARTIAL: files changed while they were searched (rewritten, removed, or a folder swapped for a link); their lines juju could not confirm are left out; search again")
	}
	if out.Hidden > 0 {
		notes = append(notes, plural(out.Hidden, "secret or denied file", "secret or denied files")+" not searched")
	}
	if len(out.Files) == 0 && !out.Partial {
		return fmt.Sprintf("No matches for %q under %s. Check the pattern (regular expression unless literal: true; case is smart unless caseSensitive), or widen path and fileGlob.\n", in.Pattern, in.Path)
	}
	return "[" + strings.Join(notes, "; ") + ".]\n"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
