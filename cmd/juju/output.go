package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/jujutools/juju/internal/visible"
)

// writeJSON writes v as indented JSON and a newline, every character that
// would not show as itself on a terminal (a C1 control, a bidi override)
// escaped as \u: the text is the model's as often as not (file names,
// arguments, client names), and --json output is read on a terminal too.
func writeJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(visible.JSON(b.Bytes()))
	return err
}

// newTable aligns tab-separated columns.
func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
}

// oneLine shortens a description to its first sentence on one line, at most
// max characters, cut at a word when it is longer; cut says it was, and
// the caller marks it with an ellipsis.
func oneLine(s string, max int) (line string, cut bool) {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	if utf8.RuneCountInString(s) <= max {
		return s, false
	}
	line = string([]rune(s)[:max-1])
	if i := strings.LastIndexByte(line, ' '); i > len(line)/2 {
		line = line[:i] // end on a whole word
	}
	return strings.TrimRight(line, " ,;:"), true
}

// shownLine is oneLine of a text a plugin chose, rendered for the terminal
// (visible.String), the ellipsis added after the rendering: juju's own
// mark, which rendered with the word it ends would show as \u2026.
func shownLine(s string, max int) string {
	line, cut := oneLine(s, max)
	if line = visible.String(line); cut {
		line += visible.Ellipsis
	}
	return line
}
